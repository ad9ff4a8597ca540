package store

import (
	"fmt"
	"io"
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
	db := &DB{engine: e, bolt: e.Replica(), pg: e, path: replica, label: e.URL(), mode: Strict, batchDelay: opt.BatchDelay}
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
	if err := out.Update(func(dst kv.Tx) error { _, err := copyEverything(dst, tx); return err }); err != nil {
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

// DatabaseStatus is the shared database as this node sees it: what readyz and the metrics show.
type DatabaseStatus struct {
	URL       string `json:"url"` // password masked
	Reachable bool   `json:"reachable"`
	Error     string `json:"error,omitempty"`
	// Head is the database's last revision this node has seen, Applied its replica's; Lag the
	// commits between them.
	Head    uint64 `json:"head"`
	Applied uint64 `json:"applied"`
	Lag     uint64 `json:"lag_commits"`
	// LastAnswerMS is how long ago the database last answered this node's poll.
	LastAnswerMS int64 `json:"last_answer_ms"`
}

// DatabaseStatus reports the shared database's connection and this node's change-log lag;
// false for a bbolt file.
func (db *DB) DatabaseStatus() (DatabaseStatus, bool) {
	if db.pg == nil {
		return DatabaseStatus{}, false
	}
	s := db.pg.Status()
	st := DatabaseStatus{URL: s.URL, Reachable: s.Reachable, Error: s.Err, Head: s.Head, Applied: s.Applied, LastAnswerMS: s.Since.Milliseconds()}
	if s.Head > s.Applied {
		st.Lag = s.Head - s.Applied
	}
	return st, true
}

// InspectDatabase is doctor's look at a shared database: its tables' layout against this build's,
// pocketforge's schema version against this build's, its size and the lease holder; it prints to
// w and returns the number of problems. Nothing is created or changed.
func InspectDatabase(url string, w io.Writer) (int, error) {
	in, err := pgkv.Inspect(url, BucketMeta, string(metaSchema), leaseName)
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(w, "database: %s\n", in.URL)
	switch {
	case in.Layout == 0:
		fmt.Fprintln(w, "PROBLEM: no pocketforge tables (serve --store or migrate --to creates them)")
		return 1, nil
	case in.Layout > pgkv.Layout:
		fmt.Fprintf(w, "PROBLEM: tables of layout %d, this pocketforge knows layout %d (upgrade pocketforge)\n", in.Layout, pgkv.Layout)
		return 1, nil
	}
	fmt.Fprintf(w, "tables: layout %d (this pocketforge: %d)\n", in.Layout, pgkv.Layout)
	problems := 0
	switch v := Btoi(in.Value); {
	case len(in.Value) != 8:
		fmt.Fprintln(w, "PROBLEM: no schema version (not initialised by pocketforge)")
		problems++
	case v > SchemaVersion():
		fmt.Fprintf(w, "PROBLEM: %v: schema %d, this pocketforge knows %d (upgrade pocketforge)\n", ErrNewerSchema, v, SchemaVersion())
		problems++
	default:
		fmt.Fprintf(w, "schema: %d (this pocketforge: %d)\n", v, SchemaVersion())
	}
	fmt.Fprintf(w, "revision: %d, %d keys and buckets, %d change-log records\n", in.Head, in.Rows, in.Log)
	if in.Lease.Holder != "" {
		fmt.Fprintf(w, "singletons: node %s (lease live: %v)\n", in.Lease.Holder, in.Lease.Live)
	}
	return problems, nil
}
