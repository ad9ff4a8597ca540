package store

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/kv/boltkv"
)

// Snapshot writes a consistent copy of the whole data file to w while the appliance keeps
// serving (bbolt Tx.WriteTo inside one read transaction: writers go on, the copy shows one
// instant). The copy is itself a data file, carrying its schema version in BucketMeta. It returns
// the number of bytes written and the schema version.
//
// The copy ends in the SHA-256 of its pages (snapshot_digest.go), which restore, import and
// doctor check.
func (db *DB) Snapshot(w io.Writer) (int64, uint64, error) {
	var n int64
	err := db.View(func(tx kv.Tx) error {
		if !boltkv.IsBolt(tx) { // a database: its snapshot is a bbolt file all the same
			out, name, err := db.snapshotCopy(tx)
			if err != nil {
				return err
			}
			defer os.Remove(name)
			defer out.Close()
			return out.View(func(ctx kv.Tx) error { n, err = writeSnapshot(ctx, w); return err })
		}
		var err error
		n, err = writeSnapshot(tx, w)
		return err
	})
	return n, SchemaVersion(), err
}

// writeSnapshot writes tx's bbolt file to w, then the SHA-256 trailer.
func writeSnapshot(tx kv.Tx, w io.Writer) (int64, error) {
	h := sha256.New()
	n, err := boltkv.WriteTo(tx, io.MultiWriter(w, h))
	if err != nil {
		return n, err
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	m, err := writeTrailer(w, sum)
	return n + int64(m), err
}

// SnapshotFile writes a snapshot to path atomically: to a temporary file beside it, synced, then
// renamed over path. It refuses to replace an existing file unless overwrite is set.
func (db *DB) SnapshotFile(path string, overwrite bool) error {
	if !overwrite && exists(path) {
		return fileExists{path}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".pocketforge-snapshot-*")
	if err != nil {
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	if _, _, err := db.Snapshot(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	return syncDir(filepath.Dir(path))
}

// syncDir fsyncs a directory so a rename in it survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	_ = d.Sync() // not every filesystem supports it; the rename itself has succeeded
	return nil
}

// fileExists refuses to overwrite path without --force; it is ErrExists to errors.Is (the
// command exits with its refusal code).
type fileExists struct{ path string }

func (e fileExists) Error() string        { return e.path + " exists; pass --force to overwrite it" }
func (e fileExists) Is(target error) bool { return target == ErrExists }
