package store

import (
	"bytes"
	"encoding/binary"

	"go.etcd.io/bbolt"
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
func IndexAdd(tx *bbolt.Tx, bucket string, parent, child []byte) error {
	b, err := Bucket(tx, bucket)
	if err != nil {
		return err
	}
	return b.Put(IndexKey(parent, child), []byte{})
}

// IndexRemove forgets child under parent (no error when absent).
func IndexRemove(tx *bbolt.Tx, bucket string, parent, child []byte) error {
	b, err := Bucket(tx, bucket)
	if err != nil {
		return err
	}
	return b.Delete(IndexKey(parent, child))
}

// IndexChildren returns parent's children in key order (copies, safe after the transaction).
func IndexChildren(tx *bbolt.Tx, bucket string, parent []byte) ([][]byte, error) {
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
func IndexedRecords[T any](tx *bbolt.Tx, index string, parent []byte, records string) ([]T, error) {
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
