package store

import (
	"strings"
	"sync"

	"github.com/pocketforge/pocketforge/store/kv"
)

// Memo caches values derived from the store — decoded records, lists — so hot reads skip bbolt
// and JSON decoding. An entry is valid until the next committed write of any kind: coarse, but
// always correct (a revoked token or a deleted user never survives its commit), and reads far
// outnumber writes on the paths that use it. Cached values are shared: callers must not modify
// them. A memo holds at most maxMemoEntries values (keys may come from requests: a caller asking
// for name after random name must not grow it without bound); past that it starts afresh.
type Memo[K comparable, V any] struct {
	db      *DB
	mu      sync.RWMutex
	version uint64 // the store version every entry of m was loaded at
	m       map[K]V
}

// NewMemo returns an empty cache over db.
func NewMemo[K comparable, V any](db *DB) *Memo[K, V] {
	return &Memo[K, V]{db: db, m: map[K]V{}}
}

// Get returns the cached value of key, or loads it with load in a read transaction. Errors are
// not cached.
func (m *Memo[K, V]) Get(key K, load func(tx kv.Tx) (V, error)) (V, error) {
	v0 := m.db.Version()
	m.mu.RLock()
	val, ok := m.m[key]
	fresh := m.version == v0
	m.mu.RUnlock()
	if ok && fresh {
		return val, nil
	}
	err := m.db.View(func(tx kv.Tx) (err error) { val, err = load(tx); return })
	if err != nil {
		return val, err
	}
	m.mu.Lock()
	if m.version != v0 {
		if m.version > v0 {
			m.mu.Unlock()
			return val, nil // a newer generation is already cached; do not mix
		}
		clear(m.m)
		m.version = v0
	}
	if _, ok := m.m[key]; !ok && len(m.m) >= maxMemoEntries {
		clear(m.m)
	}
	m.m[owned(key)] = val
	m.mu.Unlock()
	return val, nil
}

// owned is key with a string of its own: a string key is often a view of a request's buffer
// (fiber's path parameters), which is reused once the handler returns.
func owned[K comparable](key K) K {
	if s, ok := any(key).(string); ok {
		return any(strings.Clone(s)).(K)
	}
	return key
}

// maxMemoEntries bounds each Memo (see Memo).
const maxMemoEntries = 4096
