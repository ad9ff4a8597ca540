package cloudsvc

import (
	"sync"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// horizon collects, while something is derived from the store at an instant now, the last
// instant through which it stays the same as the clock moves on and the store does not change:
// every rule that reads the clock notes when it would flip. A nil horizon notes nothing (the
// callers that derive for one instant only, such as a billing run).
type horizon struct {
	through time.Time
	set     bool // false: nothing depends on the clock
}

// until notes that the derived value may change after t.
func (h *horizon) until(t time.Time) {
	if h != nil && (!h.set || t.Before(h.through)) {
		h.through, h.set = t, true
	}
}

// hours notes when an item billed by the started hour over [start, end), clipped to a period
// that ends at to — the moving present — changes: an item still running at to (end == to)
// counts one hour more just after start plus its hours; one that has not begun (start at or
// after to) begins to count just after start. An item that ended before to is fixed.
func (h *horizon) hours(start, end, to time.Time) {
	if h == nil || end.Before(to) {
		return
	}
	if !end.After(start) {
		h.until(start)
		return
	}
	n := (end.Sub(start) + time.Hour - 1) / time.Hour
	h.until(start.Add(n * time.Hour))
}

// clockCache keeps one derived value per key — an account's record, its notifications — for
// as long as neither the store nor the clock moves it: an entry holds the store version it was
// derived at and the clock instants [from, through] it holds for (see horizon). A read at
// another version, or at an instant outside that range (the settable clock may move back too),
// derives it again. Entries are replaced, never cleared: there is one per key (account).
// Cached values are shared: callers must not modify them.
type clockCache[K comparable, V any] struct {
	db *store.DB
	mu sync.RWMutex
	m  map[K]clockEntry[V]
}

type clockEntry[V any] struct {
	version uint64
	from    time.Time
	h       horizon
	val     V
}

func newClockCache[K comparable, V any](db *store.DB) *clockCache[K, V] {
	return &clockCache[K, V]{db: db, m: map[K]clockEntry[V]{}}
}

// get returns key's value as of now, from the cache or derived by load in a read transaction
// (load notes in h when its answer would change). Errors are not cached.
func (c *clockCache[K, V]) get(key K, now time.Time, load func(tx kv.Tx, h *horizon) (V, error)) (V, error) {
	v0 := c.db.Version() // read before the transaction: never newer than what it sees
	c.mu.RLock()
	hit, ok := c.m[key]
	c.mu.RUnlock()
	if ok && hit.version == v0 && !now.Before(hit.from) && (!hit.h.set || !now.After(hit.h.through)) {
		return hit.val, nil // (a variable of its own: the load's closure below moves e to the heap)
	}
	e := clockEntry[V]{version: v0, from: now}
	err := c.db.View(func(tx kv.Tx) (err error) { e.val, err = load(tx, &e.h); return })
	if err != nil {
		return e.val, err
	}
	c.mu.Lock()
	if old, ok := c.m[key]; !ok || old.version <= v0 {
		c.m[key] = e
	}
	c.mu.Unlock()
	return e.val, nil
}
