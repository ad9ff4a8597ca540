// Package kv is the storage seam (issue 36): the transaction, bucket and cursor every store and
// domain package works through, so the same code runs over the embedded bbolt file
// (store/kv/boltkv, the default) and over PostgreSQL shared by many nodes (store/kv/pgkv).
//
// The model is bbolt's, because the code was written against it: a data set is a tree of
// named buckets, each an ordered map from byte keys to byte values that may also hold nested
// buckets; a read transaction sees one instant (a snapshot) for as long as it is open; one
// write transaction at a time, all or nothing. A key whose value is a nested bucket reads as
// nil through Get and through a cursor, as in bbolt. Slices handed out by a transaction are
// valid only until it ends.
package kv

import (
	"bytes"
	"errors"
)

// Tx is a transaction over the whole data set: read-only (View) or the one writer (Update).
type Tx interface {
	// Bucket returns the top-level bucket name, or nil if there is none.
	Bucket(name []byte) Bucket
	CreateBucket(name []byte) (Bucket, error)
	CreateBucketIfNotExists(name []byte) (Bucket, error)
	DeleteBucket(name []byte) error
	// ForEach calls fn for every top-level bucket in name order.
	ForEach(fn func(name []byte, b Bucket) error) error
	// Cursor walks the top-level bucket names (values are nil).
	Cursor() Cursor
	Writable() bool
	// OnCommit has fn called once the write transaction has committed.
	OnCommit(fn func())
	// ID is the revision this transaction reads (or, for a writer, writes): it moves with every
	// committed write, so equal IDs mean equal content.
	ID() int
}

// Bucket is an ordered map of byte keys to byte values and nested buckets.
type Bucket interface {
	Get(key []byte) []byte
	Put(key, value []byte) error
	Delete(key []byte) error
	Cursor() Cursor
	// ForEach calls fn for every key in order (v is nil for a nested bucket). fn must not
	// modify the bucket.
	ForEach(fn func(k, v []byte) error) error
	Bucket(name []byte) Bucket
	CreateBucket(name []byte) (Bucket, error)
	CreateBucketIfNotExists(name []byte) (Bucket, error)
	DeleteBucket(name []byte) error
	// MoveBucket moves the nested bucket name, with everything in it, into dst (same name).
	MoveBucket(name []byte, dst Bucket) error
	NextSequence() (uint64, error)
	Sequence() uint64
	SetSequence(v uint64) error
	Writable() bool
	// KeyN counts the bucket's keys, nested buckets' keys included (bbolt's Stats().KeyN).
	KeyN() int
	// SetFillPercent hints that keys come in order, so pages may be packed fuller (bbolt); other
	// engines ignore it.
	SetFillPercent(f float64)
}

// Cursor walks a bucket's keys in byte order. Each move returns nil k past either end.
type Cursor interface {
	First() (k, v []byte)
	Last() (k, v []byte)
	Next() (k, v []byte)
	Prev() (k, v []byte)
	// Seek moves to key, or to the first key after it.
	Seek(key []byte) (k, v []byte)
	// Delete removes the key under the cursor (write transactions only).
	Delete() error
}

// Engine runs transactions over one data set.
type Engine interface {
	// View runs fn in a read transaction that sees one instant.
	View(fn func(Tx) error) error
	// Update runs fn as the one writer; fn's changes commit all together if it returns nil and
	// not at all otherwise.
	Update(fn func(Tx) error) error
	Close() error
}

// Errors every engine answers with.
var (
	// ErrBucketNotFound: DeleteBucket or MoveBucket of a bucket that is not there.
	ErrBucketNotFound = errors.New("bucket not found")
	// ErrBucketExists: CreateBucket of a name already taken.
	ErrBucketExists = errors.New("bucket already exists")
)

// restCounter is a Cursor that counts natively (boltkv's: a loop over its own cursor, with no
// interface call per key).
type restCounter interface {
	CountRest(prefix []byte) int
}

// CountRest moves c on past every key after its current one that starts with prefix and returns
// how many there were: the tail of a listing that is counted, not read (a page of 100 out of
// 10,000 index keys). Through the Cursor interface each step is a dynamic call, measurable on such
// a walk (issue 36); an engine that can count natively does.
func CountRest(c Cursor, prefix []byte) int {
	if rc, ok := c.(restCounter); ok {
		return rc.CountRest(prefix)
	}
	n := 0
	for k, _ := c.Next(); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		n++
	}
	return n
}
