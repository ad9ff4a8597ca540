package buildsvc

import (
	"bytes"
	"sync"
)

// Decoded is a bounded cache of records decoded from their stored bytes, for the searches that
// return thousands of records (a project's 20,000 packages, 2,917 new requests) and the
// scheduler's passes (a where's 1,000 statuses): decoding the JSON was much of their time. An entry is reused only while the store holds exactly the bytes it
// came from, so a change is never missed; past max entries the oldest goes first. The records are
// shared: callers must not modify them.
type Decoded[K comparable, V any] struct {
	max    int
	decode func(raw []byte) (V, error)

	mu    sync.Mutex
	m     map[K]decodedEntry[V]
	order []K // keys in the order they were added, for eviction
}

type decodedEntry[V any] struct {
	raw []byte
	v   V
}

func NewDecoded[K comparable, V any](max int, decode func(raw []byte) (V, error)) *Decoded[K, V] {
	return &Decoded[K, V]{max: max, decode: decode, m: map[K]decodedEntry[V]{}}
}

// get returns the record raw holds, from the cache when it holds these very bytes for key.
func (c *Decoded[K, V]) Get(key K, raw []byte) (V, error) {
	c.mu.Lock()
	e, ok := c.m[key]
	c.mu.Unlock()
	if ok && bytes.Equal(e.raw, raw) {
		return e.v, nil
	}
	v, err := c.decode(raw)
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, had := c.m[key]; !had {
		if len(c.order) >= c.max {
			delete(c.m, c.order[0])
			c.order = c.order[1:]
		}
		c.order = append(c.order, key)
	}
	c.m[key] = decodedEntry[V]{raw: bytes.Clone(raw), v: v}
	return v, nil
}
