package kit

import (
	"sync"
	"sync/atomic"
)

// Readiness tracks the start-up conditions (store open, fixtures loaded, indexes built) that
// /_appliance/readyz reports, so an orchestrator sends traffic only once all hold. Later issues
// add their conditions (the search index) by naming them in NewReadiness.
type Readiness struct {
	mu     sync.Mutex
	checks map[string]bool
	order  []string
	all    atomic.Bool // fast path for the per-request gate
	// background conditions (SetBackground), listed after the others; they never gate.
	background map[string]bool
	bgOrder    []string
}

// NewReadiness returns a Readiness waiting for the named conditions.
func NewReadiness(names ...string) *Readiness {
	r := &Readiness{checks: map[string]bool{}, order: names}
	for _, n := range names {
		r.checks[n] = false
	}
	return r
}

// SetBackground marks a background condition: one the readyz body lists, so an operator or
// a test can watch it, but that never holds readiness back — work the appliance does after
// it serves (the demo farm building the products the explorer then shows).
func (r *Readiness) SetBackground(name string, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.background == nil {
		r.background = map[string]bool{}
	}
	if _, known := r.background[name]; !known {
		r.bgOrder = append(r.bgOrder, name)
	}
	r.background[name] = ok
}

// Set marks a condition as met (or, with ok false, as not met again — e.g. while a restore rebuilds
// an index).
func (r *Readiness) Set(name string, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, known := r.checks[name]; !known {
		r.order = append(r.order, name)
	}
	r.checks[name] = ok
	all := true
	for _, v := range r.checks {
		all = all && v
	}
	r.all.Store(all)
}

// Ready reports whether every condition is met.
func (r *Readiness) Ready() bool { return r.all.Load() }

// Checks returns each condition and whether it is met, in declaration order.
func (r *Readiness) Checks() []Check {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Check, 0, len(r.order))
	for _, n := range r.order {
		out = append(out, Check{Name: n, OK: r.checks[n]})
	}
	for _, n := range r.bgOrder {
		out = append(out, Check{Name: n, OK: r.background[n], Background: true})
	}
	return out
}

// Check is one readiness condition.
type Check struct {
	Name string `json:"name"`
	OK   bool   `json:"ok"`
	// Background marks a condition that does not gate readiness (SetBackground).
	Background bool `json:"background,omitempty"`
}
