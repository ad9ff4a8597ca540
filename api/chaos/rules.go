// Package chaos holds the appliance's fault and latency injection rules (/_appliance/chaos), so
// that a client's retry and timeout logic can be tested against the real APIs: a rule picks
// requests by API, method, path prefix and probability, and adds latency, answers an error
// status, or drops the connection. The rules live in memory only (a restart clears them) as
// one immutable set behind an atomic pointer: with no rules the request path pays one atomic
// load, and replacing the rules never blocks a request. This package decides which fault a
// request gets; the HTTP layer (api) applies it.
package chaos

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// Rule is one injection rule as the operator writes it (see Parse for the limits).
type Rule struct {
	// API is the API a request must belong to: cloud, build, explorer, deploy, web; "" any.
	API string `json:"api"`
	// Method is the request's method (GET, POST, …); "" any.
	Method string `json:"method"`
	// PathPrefix is what the request's path must start with; "" any.
	PathPrefix string `json:"path_prefix"`
	// Probability is the chance a matching request is hit, 0 to 1; omitted: 1.
	Probability *float64 `json:"probability,omitempty"`
	// LatencyMS is a fixed delay before the request is handled (or answered with Status, or
	// dropped); Latency draws one from a range instead. At most one of the two.
	LatencyMS int    `json:"latency_ms,omitempty"`
	Latency   *Range `json:"latency,omitempty"`
	// Status answers this error status (400–599) in the API's own error format instead of
	// handling the request.
	Status int `json:"status,omitempty"`
	// Reset drops the connection without an answer. A rule has at most one effect, Status or
	// Reset; with neither it only adds latency.
	Reset bool `json:"reset,omitempty"`
}

// Range is a latency range in milliseconds, both ends included.
type Range struct {
	MinMS int `json:"min_ms"`
	MaxMS int `json:"max_ms"`
}

// Spec is a rule set as the operator writes it: the rules, tried in order, and an optional seed
// that makes the random draws reproducible (a test that sends the same requests in the same
// order sees the same faults).
type Spec struct {
	Seed  *uint64 `json:"seed,omitempty"`
	Rules []Rule  `json:"rules"`
}

// Fault is what a request gets: the index of the rule that fired, a delay, then an error status,
// a dropped connection, or (neither) the normal answer.
type Fault struct {
	Rule    int
	Latency time.Duration
	Status  int
	Reset   bool
}

// Injector holds the current rule set. The zero value has no rules.
type Injector struct {
	set atomic.Pointer[set]
	mu  sync.Mutex // serialises Replace, Add and Clear
}

// New returns an injector without rules.
func New() *Injector { return &Injector{} }

// set is one immutable rule set; only the fire counters and the seeded generator change.
type set struct {
	seed  *uint64
	rules []rule
	rng   *lockedRand // nil: the global generator
}

// rule is a checked Rule with its counter of requests it hit.
type rule struct {
	Rule
	probability float64
	fired       *atomic.Uint64
}

// lockedRand is a seeded generator shared by concurrent requests.
type lockedRand struct {
	mu sync.Mutex
	r  *rand.Rand
}

func newLockedRand(seed uint64) *lockedRand {
	return &lockedRand{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// float64 returns a number in [0, 1).
func (l *lockedRand) float64() float64 {
	if l == nil {
		return rand.Float64()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Float64()
}

// intN returns a number in [0, n).
func (l *lockedRand) intN(n int) int {
	if l == nil {
		return rand.IntN(n)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.IntN(n)
}

// Pick returns the fault for a request of api with method and path: the first rule that
// matches it and whose draw comes up fires; ok is false when none does. Without rules it is
// one atomic load. The caller keeps the operator's own endpoints out (they are never faulted).
func (in *Injector) Pick(api, method, path string) (f Fault, ok bool) {
	s := in.set.Load()
	if s == nil {
		return Fault{}, false
	}
	for i := range s.rules {
		r := &s.rules[i]
		if !r.matches(api, method, path) || !r.draw(s.rng) {
			continue
		}
		r.fired.Add(1)
		return Fault{Rule: i, Latency: r.delay(s.rng), Status: r.Status, Reset: r.Reset}, true
	}
	return Fault{}, false
}

func (r *rule) matches(api, method, path string) bool {
	return (r.API == "" || r.API == api) && (r.Method == "" || r.Method == method) &&
		(len(path) >= len(r.PathPrefix) && path[:len(r.PathPrefix)] == r.PathPrefix)
}

// draw decides by the rule's probability; 0 and 1 draw nothing, so they do not move a seeded
// sequence.
func (r *rule) draw(rng *lockedRand) bool {
	switch {
	case r.probability >= 1:
		return true
	case r.probability <= 0:
		return false
	}
	return rng.float64() < r.probability
}

// delay is the rule's fixed latency or one drawn from its range.
func (r *rule) delay(rng *lockedRand) time.Duration {
	ms := r.LatencyMS
	if r.Latency != nil {
		ms = r.Latency.MinMS
		if span := r.Latency.MaxMS - r.Latency.MinMS; span > 0 {
			ms += rng.intN(span + 1)
		}
	}
	return time.Duration(ms) * time.Millisecond
}
