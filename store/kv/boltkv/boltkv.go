// Package boltkv is the kv seam over one bbolt file: the embedded default store. It is the one
// package of pocketforge that imports bbolt (layout_test.go holds it to that), so everything the
// file format knows — opening with its lock, its consistency check, page statistics, writing a
// consistent copy, compaction — lives here, and the store asks for it by name.
//
// The adapters are conversions of bbolt's own pointers (type boltTx bbolt.Tx and so on), so a
// transaction, bucket or cursor handed out through the seam costs no allocation.
package boltkv

import (
	"errors"
	"io"
	"io/fs"
	"time"

	"github.com/pocketforge/pocketforge/store/kv"
	"go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Options tune Open.
type Options struct {
	// NoSync never fsyncs (for data that dies with the process, and for a copy synced once at
	// the end with Sync).
	NoSync bool
	// ReadOnly takes the file's shared lock and writes nothing.
	ReadOnly bool
	// LockTimeout is how long Open waits for another process to release the file (zero: wait
	// forever, as bbolt does).
	LockTimeout time.Duration
	// PageSize of a new file (zero: the OS page size).
	PageSize int
	// Mode of a new file (zero: 0600).
	Mode fs.FileMode
	// BatchDelay is bbolt's MaxBatchDelay, for Batch (zero: bbolt's default).
	BatchDelay time.Duration
}

// ErrLocked: another process holds the file's lock past the timeout.
var ErrLocked = bolterrors.ErrTimeout

// IsInvalid reports whether err says the file is not a bbolt file this build reads (not one,
// another version, a bad checksum).
func IsInvalid(err error) bool {
	return errors.Is(err, bolterrors.ErrInvalid) || errors.Is(err, bolterrors.ErrVersionMismatch) || errors.Is(err, bolterrors.ErrChecksum)
}

// DB is an open bbolt file; it is a kv.Engine.
type DB struct{ bolt *bbolt.DB }

var _ kv.Engine = (*DB)(nil)

// Open opens (creating unless ReadOnly) the bbolt file at path.
func Open(path string, opt Options) (*DB, error) {
	mode := opt.Mode
	if mode == 0 {
		mode = 0o600
	}
	bopt := &bbolt.Options{Timeout: opt.LockTimeout, FreelistType: bbolt.FreelistMapType, ReadOnly: opt.ReadOnly, PageSize: opt.PageSize}
	if opt.NoSync {
		bopt.NoSync, bopt.NoGrowSync, bopt.NoFreelistSync = true, true, true
	}
	b, err := bbolt.Open(path, mode, bopt)
	if err != nil {
		return nil, err
	}
	if opt.BatchDelay > 0 {
		b.MaxBatchDelay = opt.BatchDelay
	}
	return &DB{bolt: b}, nil
}

// View runs fn in a read transaction.
func (d *DB) View(fn func(kv.Tx) error) error {
	return d.bolt.View(func(tx *bbolt.Tx) error { return fn((*boltTx)(tx)) })
}

// Update runs fn in the write transaction.
func (d *DB) Update(fn func(kv.Tx) error) error {
	return d.bolt.Update(func(tx *bbolt.Tx) error { return fn((*boltTx)(tx)) })
}

// Batch is bbolt's Batch: for benchmarks that time the raw layer beneath the store's own
// group commit.
func (d *DB) Batch(fn func(kv.Tx) error) error {
	return d.bolt.Batch(func(tx *bbolt.Tx) error { return fn((*boltTx)(tx)) })
}

// Close releases the file and its lock.
func (d *DB) Close() error { return d.bolt.Close() }

// Sync fsyncs the file (after NoSync writes).
func (d *DB) Sync() error { return d.bolt.Sync() }

// PageSize is the file's page size.
func (d *DB) PageSize() int { return d.bolt.Info().PageSize }

// Stats are the file's figures an operator watches.
type Stats struct {
	// FreePages are pages held free or pending release: space a compact would give back.
	FreePages int
	// OpenReads are the read transactions open now.
	OpenReads int
	// Reads counts the read transactions begun since Open.
	Reads int
	// Writes counts the pages written since Open.
	Writes int64
}

// Stats reads the figures without a transaction.
func (d *DB) Stats() Stats {
	s := d.bolt.Stats()
	return Stats{FreePages: s.FreePageN + s.PendingPageN, OpenReads: s.OpenTxN, Reads: s.TxN, Writes: s.TxStats.GetWrite()}
}

// Compact copies src into d (an empty file), maxSize bytes per transaction.
func (d *DB) Compact(src *DB, maxSize int64) error { return bbolt.Compact(d.bolt, src.bolt, maxSize) }

// WriteTo writes the whole file as tx sees it to w: a consistent copy taken while writers go on.
// tx must be one of this package's.
func WriteTo(tx kv.Tx, w io.Writer) (int64, error) {
	return unwrap(tx).WriteTo(w)
}

// Check runs bbolt's consistency check over tx's file and calls found for each problem (the
// check runs to its end either way).
func Check(tx kv.Tx, found func(error)) {
	for err := range unwrap(tx).Check() {
		found(err)
	}
}

// PageType is the type of page id ("leaf", "branch", "meta", "freelist"), or false past the
// file's end.
func PageType(tx kv.Tx, id int) (string, bool) {
	info, err := unwrap(tx).Page(id)
	if err != nil || info == nil {
		return "", false
	}
	return info.Type, true
}

// BucketBytes is what b's pages take in the file (an inline bucket: its bytes in its parent's
// page). b must be one of this package's.
func BucketBytes(b kv.Bucket) int64 {
	s := (*bbolt.Bucket)(b.(*boltBucket)).Stats()
	return int64(s.BranchAlloc + s.LeafAlloc + s.InlineBucketInuse)
}

// IsBolt reports whether tx is a transaction over a bbolt file (so WriteTo and Check apply).
func IsBolt(tx kv.Tx) bool { _, ok := tx.(*boltTx); return ok }

func unwrap(tx kv.Tx) *bbolt.Tx {
	t, ok := tx.(*boltTx)
	if !ok {
		panic("boltkv: not a bbolt transaction")
	}
	return (*bbolt.Tx)(t)
}

// Raw is the bbolt handle itself, for benchmarks that time the raw layer beneath the seam.
func (d *DB) Raw() *bbolt.DB { return d.bolt }
