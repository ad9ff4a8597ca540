package store

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/kv/boltkv"
	"github.com/pocketforge/pocketforge/store/kv/pgkv"
)

// OpenPostgres opens the data of record in the PostgreSQL database at url (issue 36), this node
// keeping its replica at replica (see pgkv). As Open, it refuses a data set of a newer schema,
// migrates an older one and creates missing buckets — once, whichever node comes first. Its
// errors name the database with the password masked.
func OpenPostgres(url, replica string, opt Options) (*DB, error) {
	if opt.BatchDelay <= 0 {
		opt.BatchDelay = time.Millisecond
	}
	e, err := pgkv.Open(url, pgkv.Options{Replica: replica, Poll: opt.Poll})
	if err != nil {
		return nil, err
	}
	db := &DB{engine: e, pg: e, path: replica, label: e.URL(), mode: Strict, batchDelay: opt.BatchDelay}
	e.Follow(db.followed)
	if err := e.Update(func(tx kv.Tx) error { return prepare(tx, "database "+e.URL()) }); err != nil {
		_ = e.Close()
		return nil, err
	}
	return db, nil
}

// Postgres is the database engine beneath db, or nil for a bbolt file.
func (db *DB) Postgres() *pgkv.DB { return db.pg }

// Label names where the data lives for logs and messages: the file, or the database's URL with
// its password masked.
func (db *DB) Label() string {
	if db.label != "" {
		return db.label
	}
	return db.path
}

// OnFollow has fn told the top-level buckets another node's commit changed, once this node's
// replica has it (never for a bbolt file: nothing else writes it). Derived state that this
// node's own writes keep up to date (an index, a cache) listens here to follow the others'.
// "" among the names means everything (a full copy).
func (db *DB) OnFollow(fn func(buckets []string)) {
	db.fmu.Lock()
	db.onFollow = append(db.onFollow, fn)
	db.fmu.Unlock()
}

// followed runs when the replica took other nodes' commits: the Memo entries are stale, and
// the listeners are told.
func (db *DB) followed(buckets []string) {
	db.version.Add(1)
	db.fmu.Lock()
	fns := append([]func([]string){}, db.onFollow...)
	db.fmu.Unlock()
	for _, fn := range fns {
		fn(buckets)
	}
}

// snapshotCopy writes a bbolt copy of what tx sees to a temporary file and returns it, open:
// the snapshot of a store that is not itself a bbolt file (the caller closes and removes it).
func (db *DB) snapshotCopy(tx kv.Tx) (*boltkv.DB, string, error) {
	dir := os.TempDir()
	if db.path != "" {
		dir = filepath.Dir(db.path)
	}
	f, err := os.CreateTemp(dir, ".pocketforge-copy-*")
	if err != nil {
		return nil, "", err
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	out, err := boltkv.Open(name, boltkv.Options{NoSync: true, LockTimeout: time.Second})
	if err != nil {
		return nil, "", err
	}
	if err := out.Update(func(dst kv.Tx) error { _, err := copyData(dst, tx); return err }); err != nil {
		out.Close()
		os.Remove(name)
		return nil, "", fmt.Errorf("copying the data: %w", err)
	}
	return out, name, nil
}

// followers is DB's part for a shared store (kept here with the rest of it).
type followers struct {
	fmu      sync.Mutex
	onFollow []func([]string)
	cleanup  []func() // run after Close
}

// WithCleanup has Close run fn after closing db (a temporary replica's directory).
func (db *DB) WithCleanup(fn func()) *DB {
	db.cleanup = append(db.cleanup, fn)
	return db
}
