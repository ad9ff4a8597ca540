package store

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sort"
	"time"

	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/kv/boltkv"
	"github.com/pocketforge/pocketforge/store/kv/pgkv"
)

// The offline tools (pocketforge doctor and compact) read a data file while no server runs on
// it. They open it read-only: bbolt then takes the file's shared lock, which a running server's
// exclusive lock refuses (so a file in use is reported, not read half-written) and which keeps a
// server from starting until the tool is done. Nothing is written through this handle.

// Offline is a data file opened read-only by an offline tool.
type Offline struct {
	bolt *boltkv.DB
	path string
	size int64
}

// BucketInfo describes one top-level bucket of a data file.
type BucketInfo struct {
	Name string
	// Keys counts the keys in the bucket and in its nested buckets (a nested bucket's name is one).
	Keys int
	// Bytes is what the bucket's pages take in the file (an inline bucket: its bytes inside its
	// parent's page).
	Bytes int64
	// Registered says whether this build knows the bucket (buckets.go); an unknown one is left
	// over from another version.
	Registered bool
}

// OpenOffline opens the data file at path read-only, waiting at most lockTimeout (zero: 1 s)
// for a process holding it to let go. A file in use is an ErrLocked; a file bbolt cannot read is
// an ErrNotPocketforge. Damage is found by Check, which every caller runs before reading more.
func OpenOffline(path string, lockTimeout time.Duration) (o *Offline, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("data file %s does not exist (choose it with --data)", path)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("data file %s is not a regular file", path)
	}
	if lockTimeout <= 0 {
		lockTimeout = time.Second
	}
	var bdb *boltkv.DB
	err = guardFile(path, func() (err error) {
		bdb, err = boltkv.Open(path, boltkv.Options{ReadOnly: true, LockTimeout: lockTimeout})
		return err
	})
	if err != nil {
		if errors.Is(err, ErrNotPocketforge) {
			return nil, err
		}
		return nil, openError(path, err)
	}
	if err := guardFile(path, func() error {
		return bdb.View(func(tx kv.Tx) error {
			if pgkv.IsReplica(tx) {
				return fmt.Errorf("data file %s: %w", path, ErrIsReplica)
			}
			return nil
		})
	}); err != nil && errors.Is(err, ErrIsReplica) { // damage is Check's to report
		bdb.Close()
		return nil, err
	}
	return &Offline{bolt: bdb, path: path, size: st.Size()}, nil
}

// Close releases the file and its lock.
func (o *Offline) Close() error { return o.bolt.Close() }

// Size is the file's size in bytes.
func (o *Offline) Size() int64 { return o.size }

// PageSize is the file's page size in bytes.
func (o *Offline) PageSize() int { return o.bolt.PageSize() }

// Check reports the file's damage as an ErrNotPocketforge naming what is wrong, or nil. The
// structure is walked without a memory map first (CheckSnapshotFile's walk: a damaged page there
// faults in bbolt's own check, where no recover of ours reaches), then bbolt's consistency check
// runs over the whole file; up to five of its findings are named.
func (o *Offline) Check() error {
	f, err := os.Open(o.path)
	if err != nil {
		return fmt.Errorf("data file %s: %w", o.path, err)
	}
	err = checkStructure(f, o.size)
	f.Close()
	if err != nil {
		return fmt.Errorf("data file %s: %w (damaged: %v)", o.path, ErrNotPocketforge, err)
	}
	var found []error
	n := 0
	err = guardFile(o.path, func() error {
		return o.bolt.View(func(tx kv.Tx) error {
			boltkv.Check(tx, func(err error) {
				if n++; len(found) < 5 {
					found = append(found, err)
				}
			})
			return nil
		})
	})
	if err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("data file %s: %w (damaged: bbolt's check found %d problems: %w)", o.path, ErrNotPocketforge, n, errors.Join(found...))
	}
	return nil
}

// SchemaVersion returns the file's schema version: an ErrNotPocketforge for a file that is not
// pocketforge's, an ErrNewerSchema (with the version) for one a newer build wrote. An older one
// is fine: serve migrates it when it opens it.
func (o *Offline) SchemaVersion() (v uint64, err error) {
	err = guardFile(o.path, func() error {
		return o.bolt.View(func(tx kv.Tx) (err error) {
			v, err = fileVersion(tx, "data file "+o.path)
			if errors.Is(err, ErrNewerSchema) {
				v = Btoi(tx.Bucket([]byte(BucketMeta)).Get(metaSchema))
			}
			return err
		})
	})
	return v, err
}

// Buckets lists the file's top-level buckets by name. Run Check first: the walk reads every page.
func (o *Offline) Buckets() (out []BucketInfo, err error) {
	err = guardFile(o.path, func() error {
		return o.bolt.View(func(tx kv.Tx) error {
			return tx.ForEach(func(name []byte, b kv.Bucket) error {
				out = append(out, BucketInfo{Name: string(name), Keys: b.KeyN(),
					Bytes: boltkv.BucketBytes(b), Registered: registered(string(name))})
				return nil
			})
		})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, err
}

// View runs fn in a read-only transaction, for readers of one domain's state (the explorer's
// generation). Run Check first.
func (o *Offline) View(fn func(tx kv.Tx) error) error {
	return guardFile(o.path, func() error { return o.bolt.View(fn) })
}

// registered reports whether name is in the bucket registry.
func registered(name string) bool {
	for _, b := range registry {
		if b.name == name {
			return true
		}
	}
	return false
}

// guardFile runs fn, which reads the data file at path through bbolt's memory map, and turns
// the faults a damaged file causes (bbolt panics on a bad page; a page past the end of the file
// is a SIGBUS) into an ErrNotPocketforge, as guardDamage does for snapshots.
func guardFile(path string, fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("data file %s: %w (damaged: %v)", path, ErrNotPocketforge, p)
		}
	}()
	return fn()
}
