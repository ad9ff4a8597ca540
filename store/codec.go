package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/pocketforge/pocketforge/store/kv"
)

// Values are JSON; numeric ids and sequences are big-endian uint64 keys, so bbolt's byte order is
// their numeric order and a cursor walks them oldest first.

// Itob encodes v as an 8-byte big-endian key.
func Itob(v uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, v)
	return b
}

// Btoi decodes an 8-byte big-endian key; anything else decodes to 0.
func Btoi(b []byte) uint64 {
	if len(b) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

// Bucket returns the registered top-level bucket name of tx. A name missing from the registry is
// a programming error, reported as an error rather than a nil-pointer panic.
func Bucket(tx kv.Tx, name string) (kv.Bucket, error) {
	b := tx.Bucket([]byte(name))
	if b == nil {
		return nil, fmt.Errorf("bucket %q is not registered in store/buckets.go", name)
	}
	return b, nil
}

// Buckets is Bucket for several names at once, in the order given: domain code that writes
// one record into several indexes opens them once per transaction, not once per key.
func Buckets(tx kv.Tx, names ...string) ([]kv.Bucket, error) {
	out := make([]kv.Bucket, len(names))
	for i, n := range names {
		b, err := Bucket(tx, n)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// Put stores v as JSON under key in the named bucket.
func Put(tx kv.Tx, bucket string, key []byte, v any) error {
	b, err := Bucket(tx, bucket)
	if err != nil {
		return err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("%s/%s: encode: %w", bucket, key, err)
	}
	return b.Put(key, data)
}

// Get decodes the JSON value under key in the named bucket; ErrNotFound when absent.
func Get[T any](tx kv.Tx, bucket string, key []byte) (T, error) {
	var v T
	b, err := Bucket(tx, bucket)
	if err != nil {
		return v, err
	}
	data := b.Get(key)
	if data == nil {
		return v, fmt.Errorf("%s %q: %w", bucket, key, ErrNotFound)
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return v, fmt.Errorf("%s %q: decode: %w", bucket, key, err)
	}
	return v, nil
}

// Delete removes key from the named bucket; ErrNotFound when it was absent.
func Delete(tx kv.Tx, bucket string, key []byte) error {
	b, err := Bucket(tx, bucket)
	if err != nil {
		return err
	}
	if b.Get(key) == nil {
		return fmt.Errorf("%s %q: %w", bucket, key, ErrNotFound)
	}
	return b.Delete(key)
}

// Each decodes every value whose key starts with prefix (all when prefix is empty), in key order,
// and calls fn until it returns false or an error.
func Each[T any](tx kv.Tx, bucket string, prefix []byte, fn func(key []byte, v T) (bool, error)) error {
	b, err := Bucket(tx, bucket)
	if err != nil {
		return err
	}
	c := b.Cursor()
	for k, data := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, data = c.Next() {
		if data == nil { // a nested bucket, not a value
			continue
		}
		var v T
		if err := json.Unmarshal(data, &v); err != nil {
			return fmt.Errorf("%s %q: decode: %w", bucket, k, err)
		}
		more, err := fn(k, v)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// NextID returns the next value of the named bucket's sequence (1, 2, …), for numeric ids.
func NextID(tx kv.Tx, bucket string) (uint64, error) {
	b, err := Bucket(tx, bucket)
	if err != nil {
		return 0, err
	}
	return b.NextSequence()
}

// DeletePrefix removes every key of the named bucket that starts with prefix (keys are
// collected first: bbolt cursors must not delete under themselves).
func DeletePrefix(tx kv.Tx, bucket string, prefix []byte) error {
	b, err := Bucket(tx, bucket)
	if err != nil {
		return err
	}
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, append([]byte{}, k...))
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
