// Package store owns pocketforge's data of record: one bbolt file. It opens the file (holding its
// lock), keeps the bucket registry and the schema version, gives every domain the same write path
// (a lone write commits at once, overlapping writes share commits) and takes consistent snapshots and restores.
// Domains keep their key layout in store/<domain>; the bleve index and every cache are derived
// from what is here.
package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync/atomic"
	"time"

	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/kv/boltkv"
	"github.com/pocketforge/pocketforge/store/kv/pgkv"
)

// Durability says when a commit reaches the disk.
type Durability int

const (
	// Strict fsyncs every commit before the write returns: an answered write survives kill -9 and
	// power loss. The default.
	Strict Durability = iota
	// NoSync never fsyncs (bbolt NoSync). For --ephemeral data files that die with the process.
	NoSync
)

// String names the mode for logs.
func (d Durability) String() string {
	if d == NoSync {
		return "nosync"
	}
	return "strict"
}

// Options tune Open.
type Options struct {
	Durability Durability
	// BatchDelay is how long a group commit waits for more writers once writes overlap. About
	// 1 ms lets 64 concurrent writers share commits without slowing a lone writer (which never
	// waits: it uses Update). Zero means 1 ms.
	BatchDelay time.Duration
	// LockTimeout is how long Open waits for another process to release the file. Zero means 1 s.
	LockTimeout time.Duration
	// Poll is how often a node of a shared store asks for the others' commits (zero: 200 ms).
	Poll time.Duration
}

// DB is an open data file.
type DB struct {
	// engine runs the transactions: the bbolt file (bolt, the default) or another kv engine.
	engine kv.Engine
	bolt   *boltkv.DB // nil when the engine is not a bbolt file
	pg     *pgkv.DB   // the PostgreSQL engine, or nil
	label  string     // where the data lives, for messages ("": path)
	followers
	path       string
	mode       Durability
	group      groupCommit   // overlapping writes share commits (Write)
	batchDelay time.Duration // how long a group gathers once writes overlap
	version    atomic.Uint64 // commits so far: what Memo entries are checked against
	// onCommit is told each commit's duration (ObserveCommits); nil: nobody listens.
	onCommit atomic.Pointer[func(time.Duration)]
	// pageSize is the file's page size, read once at Open: bbolt's Info reads the memory map
	// without a lock, which races with a commit that grows the file (Stats runs at any time).
	pageSize int
}

// Open opens (creating it if needed) the data file at path, takes its lock, refuses a file of a
// newer schema, migrates an older one and creates missing buckets. Its errors are one line fit for
// a user: they name the file and what to do.
func Open(path string, opt Options) (*DB, error) {
	if opt.BatchDelay <= 0 {
		opt.BatchDelay = time.Millisecond
	}
	if opt.LockTimeout <= 0 {
		opt.LockTimeout = time.Second
	}
	bdb, err := boltkv.Open(path, boltkv.Options{LockTimeout: opt.LockTimeout, NoSync: opt.Durability == NoSync, BatchDelay: opt.BatchDelay})
	if err != nil {
		return nil, openError(path, err)
	}
	db := &DB{engine: bdb, bolt: bdb, path: path, mode: opt.Durability, batchDelay: opt.BatchDelay, pageSize: bdb.PageSize()}
	if err := bdb.Update(func(tx kv.Tx) error {
		if pgkv.IsReplica(tx) {
			return fmt.Errorf("data file %s: %w", path, ErrIsReplica)
		}
		return prepare(tx, path)
	}); err != nil {
		_ = bdb.Close()
		return nil, err
	}
	return db, nil
}

// openError turns bbolt's and the OS's open errors into one clear line.
func openError(path string, err error) error {
	switch {
	case errors.Is(err, boltkv.ErrLocked):
		return fmt.Errorf("data file %s: %w (is another pocketforge running on it? stop it or use --data)", path, ErrLocked)
	case boltkv.IsInvalid(err):
		return fmt.Errorf("data file %s: %w (%v)", path, ErrNotPocketforge, err)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("data file %s: permission denied (choose a writable path with --data)", path)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("data file %s: directory does not exist (create it or choose another --data)", path)
	}
	return fmt.Errorf("data file %s: %v", path, err)
}

// Path returns the data file's path.
func (db *DB) Path() string { return db.path }

// Durability returns the mode the file was opened with.
func (db *DB) Durability() Durability { return db.mode }

// Bolt returns the bbolt file beneath — the data file, or on a shared store this node's
// replica — for benchmarks that compare against the raw layer and for its statistics.
func (db *DB) Bolt() *boltkv.DB { return db.bolt }

// Close releases the data (the file and its lock).
func (db *DB) Close() error {
	err := db.engine.Close()
	for _, fn := range db.cleanup {
		fn()
	}
	return err
}

// View runs fn in a read-only transaction.
func (db *DB) View(fn func(tx kv.Tx) error) error { return db.engine.View(fn) }

// Write runs fn in a read-write transaction and returns once it is committed (and, in Strict mode,
// on disk). A lone writer gets its own commit at once; writers that arrive while a commit is under
// way are grouped into the next one (see groupCommit; Options.BatchDelay lets the group gather),
// which multiplies throughput under concurrency. Because a group may run fn again after another
// member fails, fn must be idempotent and must not touch anything outside tx — in particular it
// must not hold on to fiber's request buffers, which are reused after the handler returns: copy
// them first.
func (db *DB) Write(fn func(tx kv.Tx) error) error {
	return db.write(fn)
}

// Exclusive runs fn in a read-write transaction of its own, never batched with others: for
// large operations (reset, restore, fixture loading) that should not ride along with requests.
func (db *DB) Exclusive(fn func(tx kv.Tx) error) error {
	start := time.Now()
	err := db.engine.Update(fn)
	if err == nil {
		db.committed(start)
	}
	return err
}

// Version counts the commits since Open. It moves after the commit, so a value read
// before a read transaction begins is never newer than what that transaction sees.
func (db *DB) Version() uint64 { return db.version.Load() }

// exists reports whether a regular file is at path.
func exists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
