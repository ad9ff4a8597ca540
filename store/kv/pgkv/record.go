package pgkv

import (
	"bytes"

	"github.com/pocketforge/pocketforge/store/kv"
)

// The replica's own bookkeeping lives in a top-level bucket whose name sorts first and which
// the transactions handed out never show: its revision, the database it copies and the boot it
// was last written in.
var (
	replicaBucket = []byte("\x00pgkv")
	keyRev        = []byte("rev")
	keyDatabase   = []byte("database")
	keyBoot       = []byte("boot")
)

// readTx is a replica read transaction with the bookkeeping bucket hidden.
type readTx struct{ kv.Tx }

func (t readTx) ForEach(fn func(name []byte, b kv.Bucket) error) error {
	return t.Tx.ForEach(func(name []byte, b kv.Bucket) error {
		if bytes.Equal(name, replicaBucket) {
			return nil
		}
		return fn(name, b)
	})
}

func (t readTx) Cursor() kv.Cursor { return hiding{t.Tx.Cursor()} }

// hiding is the top-level cursor without the bookkeeping bucket (it sorts first).
type hiding struct{ kv.Cursor }

func (c hiding) skip(k, v []byte) ([]byte, []byte) {
	if bytes.Equal(k, replicaBucket) {
		return c.Cursor.Next()
	}
	return k, v
}
func (c hiding) First() ([]byte, []byte)        { return c.skip(c.Cursor.First()) }
func (c hiding) Seek(k []byte) ([]byte, []byte) { return c.skip(c.Cursor.Seek(k)) }
func (c hiding) Next() ([]byte, []byte)         { return c.Cursor.Next() }
func (c hiding) Last() ([]byte, []byte)         { return c.hideLast(c.Cursor.Last()) }
func (c hiding) Prev() ([]byte, []byte)         { return c.hideLast(c.Cursor.Prev()) }
func (c hiding) hideLast(k, v []byte) ([]byte, []byte) {
	if bytes.Equal(k, replicaBucket) {
		return nil, nil
	}
	return k, v
}

// writeTx is a replica write transaction that records every place it changes.
type writeTx struct {
	readTx
	t *touched
}

func (w *writeTx) wrap(b kv.Bucket, path []byte) kv.Bucket {
	if b == nil {
		return nil
	}
	return &writeBucket{in: b, path: path, t: w.t}
}

func (w *writeTx) Bucket(name []byte) kv.Bucket {
	return w.wrap(w.Tx.Bucket(name), appendName(nil, name))
}

func (w *writeTx) CreateBucket(name []byte) (kv.Bucket, error) {
	b, err := w.Tx.CreateBucket(name)
	if err != nil {
		return nil, err
	}
	path := appendName(nil, name)
	w.t.tree(path)
	return w.wrap(b, path), nil
}

func (w *writeTx) CreateBucketIfNotExists(name []byte) (kv.Bucket, error) {
	if b := w.Tx.Bucket(name); b != nil {
		return w.wrap(b, appendName(nil, name)), nil
	}
	return w.CreateBucket(name)
}

func (w *writeTx) DeleteBucket(name []byte) error {
	if err := w.Tx.DeleteBucket(name); err != nil {
		return err
	}
	w.t.tree(appendName(nil, name))
	return nil
}

func (w *writeTx) ForEach(fn func(name []byte, b kv.Bucket) error) error {
	return w.readTx.ForEach(func(name []byte, b kv.Bucket) error {
		return fn(name, w.wrap(b, appendName(nil, name)))
	})
}

// writeBucket records the places its writes change.
type writeBucket struct {
	in   kv.Bucket
	path []byte
	t    *touched
}

func (b *writeBucket) child(c kv.Bucket, name []byte) kv.Bucket {
	if c == nil {
		return nil
	}
	return &writeBucket{in: c, path: appendName(b.path, name), t: b.t}
}

func (b *writeBucket) Get(key []byte) []byte                    { return b.in.Get(key) }
func (b *writeBucket) ForEach(fn func(k, v []byte) error) error { return b.in.ForEach(fn) }
func (b *writeBucket) Sequence() uint64                         { return b.in.Sequence() }
func (b *writeBucket) Writable() bool                           { return b.in.Writable() }
func (b *writeBucket) KeyN() int                                { return b.in.KeyN() }
func (b *writeBucket) SetFillPercent(f float64)                 { b.in.SetFillPercent(f) }

func (b *writeBucket) Put(key, value []byte) error {
	if err := b.in.Put(key, value); err != nil {
		return err
	}
	b.t.key(b.path, key)
	return nil
}

func (b *writeBucket) Delete(key []byte) error {
	if err := b.in.Delete(key); err != nil {
		return err
	}
	b.t.key(b.path, key)
	return nil
}

func (b *writeBucket) Cursor() kv.Cursor { return &writeCursor{Cursor: b.in.Cursor(), b: b} }

func (b *writeBucket) Bucket(name []byte) kv.Bucket { return b.child(b.in.Bucket(name), name) }

func (b *writeBucket) CreateBucket(name []byte) (kv.Bucket, error) {
	c, err := b.in.CreateBucket(name)
	if err != nil {
		return nil, err
	}
	b.t.tree(appendName(b.path, name))
	return b.child(c, name), nil
}

func (b *writeBucket) CreateBucketIfNotExists(name []byte) (kv.Bucket, error) {
	if c := b.in.Bucket(name); c != nil {
		return b.child(c, name), nil
	}
	return b.CreateBucket(name)
}

func (b *writeBucket) DeleteBucket(name []byte) error {
	if err := b.in.DeleteBucket(name); err != nil {
		return err
	}
	b.t.tree(appendName(b.path, name))
	return nil
}

func (b *writeBucket) MoveBucket(name []byte, dst kv.Bucket) error {
	d, ok := dst.(*writeBucket)
	if !ok {
		return kv.ErrBucketNotFound
	}
	if err := b.in.MoveBucket(name, d.in); err != nil {
		return err
	}
	b.t.tree(appendName(b.path, name))
	b.t.tree(appendName(d.path, name))
	return nil
}

func (b *writeBucket) NextSequence() (uint64, error) {
	n, err := b.in.NextSequence()
	if err == nil {
		b.t.seq(b.path)
	}
	return n, err
}

func (b *writeBucket) SetSequence(v uint64) error {
	if err := b.in.SetSequence(v); err != nil {
		return err
	}
	b.t.seq(b.path)
	return nil
}

// writeCursor records a delete through the cursor (the key under it).
type writeCursor struct {
	kv.Cursor
	b *writeBucket
	k []byte
}

func (c *writeCursor) at(k, v []byte) ([]byte, []byte) { c.k = k; return k, v }
func (c *writeCursor) First() ([]byte, []byte)         { return c.at(c.Cursor.First()) }
func (c *writeCursor) Last() ([]byte, []byte)          { return c.at(c.Cursor.Last()) }
func (c *writeCursor) Next() ([]byte, []byte)          { return c.at(c.Cursor.Next()) }
func (c *writeCursor) Prev() ([]byte, []byte)          { return c.at(c.Cursor.Prev()) }
func (c *writeCursor) Seek(k []byte) ([]byte, []byte)  { return c.at(c.Cursor.Seek(k)) }

func (c *writeCursor) Delete() error {
	k := bytes.Clone(c.k)
	if err := c.Cursor.Delete(); err != nil {
		return err
	}
	c.b.t.key(c.b.path, k)
	return nil
}
