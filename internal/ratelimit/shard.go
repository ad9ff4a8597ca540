package ratelimit

import (
	"strings"
	"sync"
	"time"
)

// Sweep triggers. A shard sweeps when its map reaches sweepLen entries (twice what survived the last
// sweep, at least minSweepLen), which keeps the cost of sweeping O(1) per new key however many keys
// are live; and at least every sweepEvery of clock time, so that keys which went quiet are dropped
// even when no new keys arrive.
const (
	minSweepLen = 256
	sweepEvery  = int64(30 * time.Second)
)

// shard is one mutex and the counters of the keys hashed to it.
type shard struct {
	mu       sync.Mutex
	entries  map[string]*entry
	sweepLen int      // sweep when len(entries) reaches this
	sweptAt  int64    // clock time of the last sweep, Unix nanoseconds
	_        [64]byte // keep neighbouring shards' mutexes off one cache line
}

// entry holds the counters of one key, one per limit name; a key sees few limits (general plus one
// endpoint limit), so a slice searched by name beats a map.
type entry struct{ counters []counter }

// counter is the count of one (key, limit name) in one window. A count belongs to exactly one
// window: when the clock is in any other window (later, or earlier after the clock was set back),
// the count is 0. Setting the clock back therefore gives fresh budgets instead of windows that end
// far in the future, and never a negative Remaining or RetryAfter.
type counter struct {
	name   string
	window int64 // window length, ns
	start  int64 // start of the counted window, Unix ns
	count  int
}

// current returns the count of c in the window [start, start+window), 0 if c counted another one.
func (c *counter) current(start, window int64) int {
	if c.start != start || c.window != window {
		return 0
	}
	return c.count
}

// maybeSweep drops ended counters of this shard when a trigger fires; it runs only on this shard's
// Takes, so a shard nobody touches keeps its (bounded) counters until touched. Bound: between sweeps
// a shard holds at most max(minSweepLen, 2×L) keys, L being the keys live at the previous sweep, and
// a key is live only while one of its windows is open; so the whole Limiter holds at most about
// twice the keys seen within the longest window in use, plus shardCount×minSweepLen. A clock set
// back also triggers a sweep, restarting the 30 s timer from the new time.
func (s *shard) maybeSweep(ns int64) {
	if len(s.entries) < s.sweepLen && ns >= s.sweptAt && ns-s.sweptAt < sweepEvery {
		return
	}
	s.sweep(ns)
}

// sweep drops every key with no open window at ns.
func (s *shard) sweep(ns int64) {
	dead := 0
	for k, e := range s.entries {
		if !e.live(ns) {
			delete(s.entries, k)
			dead++
		}
	}
	if dead > len(s.entries) {
		// Go maps keep their buckets after deletes; copy the survivors into a right-sized map so a
		// flood's memory is given back.
		m := make(map[string]*entry, len(s.entries))
		for k, e := range s.entries {
			m[k] = e
		}
		s.entries = m
	}
	s.sweepLen = max(minSweepLen, 2*len(s.entries))
	s.sweptAt = ns
}

// live reports whether any counter of e has a window open at ns.
func (e *entry) live(ns int64) bool {
	for i := range e.counters {
		c := &e.counters[i]
		if ns >= c.start && ns-c.start < c.window {
			return true
		}
	}
	return false
}

// find returns the counter named name, nil if e has none.
func (e *entry) find(name string) *counter {
	for i := range e.counters {
		if e.counters[i].name == name {
			return &e.counters[i]
		}
	}
	return nil
}

// blocking returns the Decision refusing a request at ns, the blocking limit's name, and true,
// if some limit is exhausted. A nil e (a key never seen, or swept) has used nothing.
func (e *entry) blocking(ns int64, limits []Limit) (d Decision, name string, blocked bool) {
	if e == nil {
		return Decision{}, "", false
	}
	var blockEnd int64
	for _, lim := range limits {
		if lim.unlimited() {
			continue
		}
		c := e.find(lim.Name)
		if c == nil {
			continue
		}
		start, end := bounds(ns, int64(lim.Window))
		if c.current(start, int64(lim.Window)) < lim.Max || (d.Limit > 0 && end <= blockEnd) {
			continue
		}
		blockEnd = end
		d = Decision{Limit: lim.Max, Reset: time.Unix(0, end).UTC(), RetryAfter: time.Duration(end - ns)}
		name = lim.Name
	}
	return d, name, d.Limit > 0
}

// take counts one request at ns against every limited limit and describes the one with the fewest
// remaining requests; the caller has checked that none is exhausted and at least one is limited.
func (e *entry) take(ns int64, limits []Limit) Decision {
	d := Decision{Allowed: true, Remaining: -1}
	for _, lim := range limits {
		if lim.unlimited() {
			continue
		}
		w := int64(lim.Window)
		start, end := bounds(ns, w)
		c := e.find(lim.Name)
		if c == nil {
			e.counters = append(e.counters, counter{name: strings.Clone(lim.Name)})
			c = &e.counters[len(e.counters)-1]
		}
		if c.current(start, w) == 0 {
			c.start, c.window, c.count = start, w, 0
		}
		c.count++
		if rem := max(lim.Max-c.count, 0); d.Remaining < 0 || rem < d.Remaining {
			d.Limit, d.Remaining, d.Reset = lim.Max, rem, time.Unix(0, end).UTC()
		}
	}
	return d
}
