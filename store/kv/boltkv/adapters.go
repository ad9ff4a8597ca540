package boltkv

import (
	"bytes"
	"errors"

	"github.com/pocketforge/pocketforge/store/kv"
	"go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// The adapters: each is bbolt's own type under another name, so converting a pointer costs
// nothing. A missing bucket is an untyped nil kv.Bucket (never a nil pointer inside an
// interface), so callers' b == nil checks keep working.

type boltTx bbolt.Tx
type boltBucket bbolt.Bucket
type boltCursor bbolt.Cursor

func bucket(b *bbolt.Bucket) kv.Bucket {
	if b == nil {
		return nil
	}
	return (*boltBucket)(b)
}

func (t *boltTx) tx() *bbolt.Tx { return (*bbolt.Tx)(t) }

func (t *boltTx) Bucket(name []byte) kv.Bucket { return bucket(t.tx().Bucket(name)) }

func (t *boltTx) CreateBucket(name []byte) (kv.Bucket, error) {
	b, err := t.tx().CreateBucket(name)
	return bucket(b), kvErr(err)
}

func (t *boltTx) CreateBucketIfNotExists(name []byte) (kv.Bucket, error) {
	b, err := t.tx().CreateBucketIfNotExists(name)
	return bucket(b), err
}

func (t *boltTx) DeleteBucket(name []byte) error { return kvErr(t.tx().DeleteBucket(name)) }

func (t *boltTx) ForEach(fn func(name []byte, b kv.Bucket) error) error {
	return t.tx().ForEach(func(name []byte, b *bbolt.Bucket) error { return fn(name, (*boltBucket)(b)) })
}

func (t *boltTx) Cursor() kv.Cursor  { return (*boltCursor)(t.tx().Cursor()) }
func (t *boltTx) Writable() bool     { return t.tx().Writable() }
func (t *boltTx) OnCommit(fn func()) { t.tx().OnCommit(fn) }
func (t *boltTx) ID() int            { return t.tx().ID() }

func (b *boltBucket) b() *bbolt.Bucket { return (*bbolt.Bucket)(b) }

func (b *boltBucket) Get(key []byte) []byte        { return b.b().Get(key) }
func (b *boltBucket) Put(key, value []byte) error  { return b.b().Put(key, value) }
func (b *boltBucket) Delete(key []byte) error      { return b.b().Delete(key) }
func (b *boltBucket) Cursor() kv.Cursor            { return (*boltCursor)(b.b().Cursor()) }
func (b *boltBucket) Bucket(name []byte) kv.Bucket { return bucket(b.b().Bucket(name)) }
func (b *boltBucket) DeleteBucket(name []byte) error {
	return kvErr(b.b().DeleteBucket(name))
}
func (b *boltBucket) ForEach(fn func(k, v []byte) error) error { return b.b().ForEach(fn) }

func (b *boltBucket) CreateBucket(name []byte) (kv.Bucket, error) {
	c, err := b.b().CreateBucket(name)
	return bucket(c), kvErr(err)
}

func (b *boltBucket) CreateBucketIfNotExists(name []byte) (kv.Bucket, error) {
	c, err := b.b().CreateBucketIfNotExists(name)
	return bucket(c), err
}

func (b *boltBucket) MoveBucket(name []byte, dst kv.Bucket) error {
	return kvErr(b.b().MoveBucket(name, dst.(*boltBucket).b()))
}

func (b *boltBucket) NextSequence() (uint64, error) { return b.b().NextSequence() }
func (b *boltBucket) Sequence() uint64              { return b.b().Sequence() }
func (b *boltBucket) SetSequence(v uint64) error    { return b.b().SetSequence(v) }
func (b *boltBucket) Writable() bool                { return b.b().Writable() }
func (b *boltBucket) KeyN() int                     { return b.b().Stats().KeyN }
func (b *boltBucket) SetFillPercent(f float64)      { b.b().FillPercent = f }

func (c *boltCursor) c() *bbolt.Cursor                 { return (*bbolt.Cursor)(c) }
func (c *boltCursor) First() ([]byte, []byte)          { return c.c().First() }
func (c *boltCursor) Last() ([]byte, []byte)           { return c.c().Last() }
func (c *boltCursor) Next() ([]byte, []byte)           { return c.c().Next() }
func (c *boltCursor) Prev() ([]byte, []byte)           { return c.c().Prev() }
func (c *boltCursor) Seek(key []byte) ([]byte, []byte) { return c.c().Seek(key) }
func (c *boltCursor) Delete() error                    { return c.c().Delete() }

// CountRest is kv.CountRest on bbolt's own cursor.
func (c *boltCursor) CountRest(prefix []byte) int {
	bc, n := c.c(), 0
	for k, _ := bc.Next(); k != nil && bytes.HasPrefix(k, prefix); k, _ = bc.Next() {
		n++
	}
	return n
}

// kvErr answers bbolt's bucket errors with the seam's, so callers test one error whatever the
// engine.
func kvErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, bolterrors.ErrBucketNotFound):
		return kv.ErrBucketNotFound
	case errors.Is(err, bolterrors.ErrBucketExists):
		return kv.ErrBucketExists
	}
	return err
}
