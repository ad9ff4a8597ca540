package ratelimit

import (
	"hash/maphash"
	"strings"
	"sync"
	"time"
)

// Decision is the outcome of counting one request, in the terms of the rate-limit headers.
type Decision struct {
	Allowed bool
	// Unlimited is true when no limited Limit applied (none given, or all with Max 0): the request
	// is allowed and the caller should omit the rate-limit headers; Limit and Remaining are 0 and
	// Reset is the zero time.
	Unlimited bool
	// Limit is the Max of the limit the headers describe: the blocking one when refused, the one
	// with the fewest remaining requests when allowed.
	Limit int
	// Remaining is the number of requests left in that limit's current window, after this one (>= 0).
	Remaining int
	// Reset is when that limit's window ends, in UTC.
	Reset time.Time
	// RetryAfter is, when refused, the time until the blocking window ends: > 0 and at most the
	// window, so rounding it up to whole seconds gives a Retry-After of at least 1. It is 0 when
	// the request is allowed.
	RetryAfter time.Duration
}

// shardCount spreads keys over independent mutexes so that users on different cores do not queue
// behind one lock; all limits of one key sit in one shard, which makes a Take atomic across them.
// A power of two, so the shard is picked with a mask.
const shardCount = 16

// Limiter counts requests in memory; it is safe for concurrent use. It starts no goroutine, so it
// needs no Close: counters of ended windows are swept by Take itself, shard by shard. Memory is
// bounded by about twice the number of keys seen within the longest window in use (2 minutes for
// the general limit), plus a fixed 4,096 keys, at roughly 200 bytes per key with two limits; a
// flood of distinct keys (spoofed IPs) is given back once its windows end. There is no hard cap:
// evicting live counters would let a flood reset other users' budgets.
type Limiter struct {
	now    func() time.Time
	seed   maphash.Seed
	shards []shard
	// refused counts the refusals by the blocking limit's name, for the metrics (Refusals).
	refusedMu sync.Mutex
	refused   map[string]uint64
}

// New returns a Limiter reading time from now, the appliance's clock, so that moving the dev clock
// moves the windows too (tests pass a fake one).
func New(now func() time.Time) *Limiter { return newSharded(now, shardCount) }

// newSharded returns a Limiter with n shards (a power of two); benchmarks compare n = 1 with the
// default.
func newSharded(now func() time.Time, n int) *Limiter {
	l := &Limiter{now: now, seed: maphash.MakeSeed(), shards: make([]shard, n), refused: map[string]uint64{}}
	l.Reset()
	return l
}

// Take counts one request by key against every limit. If any limit is exhausted the request is not
// counted against any of them, so a client hammering a blocked endpoint does not eat its general
// budget, and Allowed is false; the Decision then describes the blocking limit (when several are
// exhausted, the one whose window ends last, since retrying earlier would still fail; ties: the
// first given). When allowed, the Decision describes the limit with the fewest remaining requests
// (ties: the first given), which is what the headers show.
func (l *Limiter) Take(key string, limits ...Limit) Decision {
	ns := l.now().UnixNano()
	s := &l.shards[l.shardIndex(key)]
	s.mu.Lock()
	defer s.mu.Unlock()
	s.maybeSweep(ns)
	e := s.entries[key]
	if d, name, blocked := e.blocking(ns, limits); blocked {
		l.countRefusal(name)
		return d
	}
	if !anyLimited(limits) {
		return Decision{Allowed: true, Unlimited: true}
	}
	if e == nil {
		// Clone: the HTTP layer may hand us a string over a reused request buffer.
		e = &entry{counters: make([]counter, 0, len(limits))}
		s.entries[strings.Clone(key)] = e
	}
	return e.take(ns, limits)
}

// countRefusal counts a request refused by the limit named name. The names are the callers'
// limits (a route's, the general one), a set fixed by the code, so the map stays small.
func (l *Limiter) countRefusal(name string) {
	l.refusedMu.Lock()
	if _, ok := l.refused[name]; !ok {
		name = strings.Clone(name)
	}
	l.refused[name]++
	l.refusedMu.Unlock()
}

// Refusals returns how many requests each limit has refused since New, by limit name: what the
// metrics export. Reset does not clear it (a counter never goes back).
func (l *Limiter) Refusals() map[string]uint64 {
	l.refusedMu.Lock()
	defer l.refusedMu.Unlock()
	out := make(map[string]uint64, len(l.refused))
	for k, v := range l.refused {
		out[k] = v
	}
	return out
}

// Reset forgets every counter; the appliance calls it when its data is reset, so a fresh demo does
// not start half rate-limited.
func (l *Limiter) Reset() {
	for i := range l.shards {
		s := &l.shards[i]
		s.mu.Lock()
		s.entries = make(map[string]*entry)
		s.sweepLen = minSweepLen
		s.sweptAt = l.now().UnixNano()
		s.mu.Unlock()
	}
}

// shardIndex returns the shard holding key's counters.
func (l *Limiter) shardIndex(key string) uint64 {
	return maphash.String(l.seed, key) & uint64(len(l.shards)-1)
}

// keys returns how many keys hold counters; tests use it to watch the sweep.
func (l *Limiter) keys() int {
	n := 0
	for i := range l.shards {
		s := &l.shards[i]
		s.mu.Lock()
		n += len(s.entries)
		s.mu.Unlock()
	}
	return n
}

// anyLimited reports whether at least one limit can block.
func anyLimited(limits []Limit) bool {
	for _, lim := range limits {
		if !lim.unlimited() {
			return true
		}
	}
	return false
}
