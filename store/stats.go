package store

import (
	"os"
	"time"
)

// Stats is what an operator watches of the data file: its size, how many commits it has taken
// and how much of it is free. Read without a transaction, so it answers at once whatever the
// store is doing (a restore holding the writer, a long snapshot).
type Stats struct {
	// FileBytes is the data file's size on disk (0 when it cannot be read).
	FileBytes int64
	// Commits counts the read-write transactions committed since Open (Version).
	Commits uint64
	// FreePages are pages bbolt holds free or pending release: space a compact would give back.
	FreePages int
	// OpenReads are the read transactions open now (long ones keep old pages from reuse).
	OpenReads int
	// PageSize is bbolt's page size in bytes, to turn FreePages into bytes.
	PageSize int
}

// Stats reads the data file's figures; it never blocks on a writer.
func (db *DB) Stats() Stats {
	st := Stats{Commits: db.Version(), PageSize: db.pageSize}
	if fi, err := os.Stat(db.path); err == nil {
		st.FileBytes = fi.Size()
	}
	if db.bolt != nil {
		bs := db.bolt.Stats()
		st.FreePages = bs.FreePages
		st.OpenReads = bs.OpenReads
	}
	return st
}

// ObserveCommits has fn told how long each committed read-write transaction took, from its
// begin to its commit on disk (a group commit counts once, as it is one fsync). The metrics
// set it, so the store need not know about them; fn must be quick and safe for concurrent use.
// A later call replaces fn; nil stops the reports.
func (db *DB) ObserveCommits(fn func(took time.Duration)) {
	if fn == nil {
		db.onCommit.Store(nil)
		return
	}
	db.onCommit.Store(&fn)
}

// committed counts a commit begun at start and reports its duration.
func (db *DB) committed(start time.Time) {
	db.version.Add(1)
	if fn := db.onCommit.Load(); fn != nil {
		(*fn)(time.Since(start))
	}
}
