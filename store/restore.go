package store

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/kv/boltkv"
)

// RestoreInfo describes a restored snapshot.
type RestoreInfo struct {
	// SchemaVersion is the version the snapshot was written with (migrated to the current one).
	SchemaVersion uint64 `json:"schema_version"`
	// Keys counts the values copied.
	Keys int `json:"keys"`
}

// Restore replaces the contents of the live data file with the snapshot read from r, limited to
// limit bytes (0: no limit). The snapshot is spooled to a temporary file beside the data file,
// checked (a pocketforge file, not newer than this build, bbolt's consistency check clean), then
// copied in over the live data in ONE transaction: readers see the old state or the new, never a
// mix, and a crash leaves one or the other. Appliance state (credentials, clock) is kept.
func (db *DB) Restore(r io.Reader, limit int64) (RestoreInfo, error) {
	tmp, err := os.CreateTemp(filepath.Dir(db.path), ".pocketforge-restore-*")
	if err != nil {
		return RestoreInfo{}, fmt.Errorf("restore: %w", err)
	}
	defer os.Remove(tmp.Name())
	src := r
	if limit > 0 {
		src = io.LimitReader(r, limit+1)
	}
	n, err := io.Copy(tmp, src)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return RestoreInfo{}, fmt.Errorf("restore: reading snapshot: %w", err)
	}
	if limit > 0 && n > limit {
		return RestoreInfo{}, fmt.Errorf("restore: snapshot larger than %d bytes: %w", limit, ErrInvalid)
	}
	return db.RestoreFile(tmp.Name())
}

// RestoreFile is Restore from a snapshot file on disk (the CLI's import). The file is opened
// read-only and left as it is. The whole file is checked before anything is replaced: first its
// structure, read without a memory map (CheckSnapshotFile), then bbolt's own consistency check; a
// damaged file is refused as ErrNotPocketforge and the live data stays as it was.
func (db *DB) RestoreFile(path string) (info RestoreInfo, err error) {
	if _, err := CheckSnapshotDigest(path); err != nil { // any changed byte, before anything else
		return info, err
	}
	if err := CheckSnapshotFile(path); err != nil {
		return info, err
	}
	src, err := boltkv.Open(path, boltkv.Options{ReadOnly: true, LockTimeout: time.Second})
	if err != nil {
		return info, fmt.Errorf("snapshot: %w (%v)", ErrNotPocketforge, err)
	}
	defer src.Close()
	err = guardDamage(func() error {
		return src.View(func(stx kv.Tx) error {
			v, err := fileVersion(stx, "snapshot")
			if err != nil {
				return err
			}
			if err := checkConsistency(stx); err != nil {
				return err
			}

			info.SchemaVersion = v
			return db.Exclusive(func(tx kv.Tx) error {
				if err := clearData(tx); err != nil {
					return err
				}
				if info.Keys, err = copyData(tx, stx); err != nil {
					return err
				}
				if err := migrate(tx, v); err != nil {
					return err
				}
				for _, check := range restoreChecks { // a refusal rolls the copy back
					if err := check(tx); err != nil {
						return fmt.Errorf("snapshot: %w (%v)", ErrNotPocketforge, err)
					}
				}
				return nil
			})
		})
	})
	return info, err
}

// checkConsistency runs bbolt's check over the whole snapshot and returns its first finding (the
// check goes on to the end, so its goroutine is never left blocked).
func checkConsistency(tx kv.Tx) error {
	var first error
	boltkv.Check(tx, func(err error) {
		if first == nil {
			first = err
		}
	})
	if first != nil {
		return fmt.Errorf("snapshot: %w (damaged: %v)", ErrNotPocketforge, first)
	}
	return nil
}

// guardDamage runs fn, which reads a snapshot through bbolt's memory map, and turns the faults a
// damaged or truncated file causes (bbolt panics on a bad page; a page past the end of the file is
// a SIGBUS) into ErrNotPocketforge. The live transaction fn writes in is rolled back by bbolt as
// the panic passes, so the live data stays as it was.
func guardDamage(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("snapshot: %w (damaged: %v)", ErrNotPocketforge, p)
		}
	}()
	return fn()
}

// Reset empties every bucket but the appliance's own state, inside tx.
func Reset(tx kv.Tx) error {
	if err := clearData(tx); err != nil {
		return err
	}
	return createBuckets(tx)
}

// clearData deletes every top-level bucket that is not kept.
func clearData(tx kv.Tx) error {
	var names [][]byte
	err := tx.ForEach(func(name []byte, _ kv.Bucket) error {
		if !kept(string(name)) {
			names = append(names, append([]byte(nil), name...))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := tx.DeleteBucket(name); err != nil {
			return fmt.Errorf("reset %s: %w", name, err)
		}
	}
	return nil
}

// copyData copies every top-level bucket of src that is not kept into dst, nested buckets and
// sequences included, and returns the number of values copied. Buckets the snapshot lacks are
// created by the caller's migrate/createBuckets.
func copyData(dst, src kv.Tx) (int, error) {
	keys := 0
	err := src.ForEach(func(name []byte, sb kv.Bucket) error {
		if kept(string(name)) {
			return nil
		}
		db, err := dst.CreateBucket(name)
		if err != nil {
			return fmt.Errorf("restore %s: %w", name, err)
		}
		n, err := copyBucket(db, sb)
		keys += n
		return err
	})
	if err != nil {
		return keys, err
	}
	return keys, createBuckets(dst)
}

// copyBucket copies the contents of src into the empty bucket dst, recursively.
func copyBucket(dst, src kv.Bucket) (int, error) {
	keys := 0
	if err := dst.SetSequence(src.Sequence()); err != nil {
		return 0, err
	}
	err := src.ForEach(func(k, v []byte) error {
		if v != nil {
			keys++
			return dst.Put(k, v) // bbolt copies k and v on commit
		}
		nested, err := dst.CreateBucket(k)
		if err != nil {
			return err
		}
		n, err := copyBucket(nested, src.Bucket(k))
		keys += n
		return err
	})
	return keys, err
}

// restoreChecks are the checks of what a restored snapshot holds, beyond its structure and
// digest, that the data's own packages register (OnRestore): a value the domains could not use
// — a signing key that does not parse — refuses the snapshot, the data untouched.
var restoreChecks []func(tx kv.Tx) error

// OnRestore registers a check every restored snapshot must pass, inside the restoring
// transaction (called from init functions).
func OnRestore(check func(tx kv.Tx) error) { restoreChecks = append(restoreChecks, check) }
