package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"

	"github.com/pocketforge/pocketforge/store/kv"
)

// Secondary indexes are buckets of (parent, child) keys with empty values, written in the same
// transaction as the record, so "the users of account 7" or "the tokens of alice" are one cursor
// seek instead of a scan. The key is the parent's length (uvarint), the parent, then the child:
// any parent (a big-endian id, a name) works, and one parent's children sort by child key.

// IndexKey returns the index key of child under parent.
func IndexKey(parent, child []byte) []byte {
	k := binary.AppendUvarint(make([]byte, 0, 2+len(parent)+len(child)), uint64(len(parent)))
	k = append(k, parent...)
	return append(k, child...)
}

// IndexAdd records child under parent in the named index bucket.
func IndexAdd(tx kv.Tx, bucket string, parent, child []byte) error {
	b, err := Bucket(tx, bucket)
	if err != nil {
		return err
	}
	return b.Put(IndexKey(parent, child), []byte{})
}

// IndexRemove forgets child under parent (no error when absent).
func IndexRemove(tx kv.Tx, bucket string, parent, child []byte) error {
	b, err := Bucket(tx, bucket)
	if err != nil {
		return err
	}
	return b.Delete(IndexKey(parent, child))
}

// IndexChildren returns parent's children in key order (copies, safe after the transaction).
func IndexChildren(tx kv.Tx, bucket string, parent []byte) ([][]byte, error) {
	b, err := Bucket(tx, bucket)
	if err != nil {
		return nil, err
	}
	prefix := IndexKey(parent, nil)
	var out [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		out = append(out, append([]byte(nil), k[len(prefix):]...))
	}
	return out, nil
}

// IndexedRecords returns the records a parent's index entries point to: each child key of the
// index bucket is the record's key in the records bucket. The one way "the invoices of account
// 7" or "the tokens of alice" is read, in child-key order.
func IndexedRecords[T any](tx kv.Tx, index string, parent []byte, records string) ([]T, error) {
	keys, err := IndexChildren(tx, index, parent)
	if err != nil {
		return nil, err
	}
	out := make([]T, 0, len(keys))
	for _, k := range keys {
		v, err := Get[T](tx, records, k)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// IndexedPage is IndexedRecords for one page: it counts parent's index entries (keys only, no
// record read) and decodes only the records of the entries [from, to) that window picks for
// that total — a listing in index order then costs one walk over keys plus one page of records,
// however many records the parent has, where IndexedRecords decodes them all. window is
// called with the total; it may be called first with a provisional total (an upper bound) so that
// the page's records are read in the same walk, and again with the real one.
func IndexedPage[T any](tx kv.Tx, index string, parent []byte, records string, window func(total int) (from, to int)) ([]T, int, error) {
	b, err := Bucket(tx, index)
	if err != nil {
		return nil, 0, err
	}
	rb, err := Bucket(tx, records)
	if err != nil {
		return nil, 0, err
	}
	prefix := IndexKey(parent, nil)
	// The page's span for a list long enough to hold it: right unless the list is shorter than
	// its start (window then answers another page, the last, read by a second walk).
	wantFrom, wantTo := window(math.MaxInt / 2)
	var out []T
	read := func(from, to int) (int, error) {
		out = make([]T, 0, max(0, min(to-from, 1024)))
		n := 0
		c := b.Cursor()
		k, _ := c.Seek(prefix)
		for ; k != nil && bytes.HasPrefix(k, prefix) && n < to; k, _ = c.Next() {
			if n >= from {
				v, err := decode[T](rb, records, k[len(prefix):])
				if err != nil {
					return 0, err
				}
				out = append(out, v)
			}
			n++
		}
		if k != nil && bytes.HasPrefix(k, prefix) { // past the page: the rest is only counted
			n += 1 + kv.CountRest(c, prefix)
		}
		return n, nil
	}
	total, err := read(wantFrom, wantTo)
	if err != nil {
		return nil, 0, err
	}
	if from, to := window(total); from != wantFrom || to != min(wantTo, total) {
		if _, err := read(from, to); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// decode reads and decodes the value under key of the records bucket b (named name for errors).
func decode[T any](b kv.Bucket, name string, key []byte) (T, error) {
	var v T
	data := b.Get(key)
	if data == nil {
		return v, fmt.Errorf("%s %q: %w", name, key, ErrNotFound)
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return v, fmt.Errorf("%s %q: decode: %w", name, key, err)
	}
	return v, nil
}
