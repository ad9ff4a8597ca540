package ratelimit

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// t0 is aligned to every window used in the tests, so offsets from it read as window positions.
var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// fakeClock is a settable clock for tests; safe for concurrent use.
type fakeClock struct{ ns atomic.Int64 }

func newFakeClock(t time.Time) *fakeClock {
	f := &fakeClock{}
	f.set(t)
	return f
}

func (f *fakeClock) now() time.Time     { return time.Unix(0, f.ns.Load()).UTC() }
func (f *fakeClock) set(t time.Time)    { f.ns.Store(t.UnixNano()) }
func (f *fakeClock) at(d time.Duration) { f.set(t0.Add(d)) }

// ok, refused and unlimited build the Decision a step expects; reset is relative to t0.
func ok(limit, remaining int, reset time.Duration) Decision {
	return Decision{Allowed: true, Limit: limit, Remaining: remaining, Reset: t0.Add(reset)}
}

func refused(limit int, reset, retry time.Duration) Decision {
	return Decision{Limit: limit, Reset: t0.Add(reset), RetryAfter: retry}
}

func unlimited() Decision { return Decision{Allowed: true, Unlimited: true} }

// step sets the clock to t0+at and takes n requests (default 1) for key; every one must have the
// Allowed of want, and the last one must equal want.
type step struct {
	at   time.Duration
	key  string
	n    int
	want Decision
}

func TestTake(t *testing.T) {
	general := func(max int) Limit { return Limit{"general", max, 2 * time.Minute} }
	endpoint := func(max int, w time.Duration) Limit { return Limit{"endpoint:POST /x", max, w} }
	cases := []struct {
		name   string
		limits []Limit
		steps  []step
	}{
		{"allow up to Max then refuse", []Limit{endpoint(3, time.Minute)}, []step{
			{at: 10 * time.Second, n: 3, want: ok(3, 0, time.Minute)},
			{at: 20 * time.Second, n: 5, want: refused(3, time.Minute, 40*time.Second)},
		}},
		{"refused requests do not count", []Limit{general(5), endpoint(3, time.Minute)}, []step{
			{at: 0, n: 3, want: ok(3, 0, time.Minute)},
			{at: 10 * time.Second, n: 4, want: refused(3, time.Minute, 50*time.Second)},
			// general has 2 left, not 0: the 4 refused requests were not counted against it.
			{at: time.Minute, n: 2, want: ok(5, 0, 2*time.Minute)},
			{at: 70 * time.Second, want: refused(5, 2*time.Minute, 50*time.Second)},
		}},
		{"window rollover", []Limit{endpoint(2, time.Minute)}, []step{
			{at: 0, n: 2, want: ok(2, 0, time.Minute)},
			{at: time.Minute - time.Millisecond, want: refused(2, time.Minute, time.Millisecond)},
			{at: time.Minute, want: ok(2, 1, 2*time.Minute)},
			{at: 2*time.Minute + 30*time.Second, want: ok(2, 1, 3*time.Minute)},
		}},
		{"endpoint limit blocks first", []Limit{general(1600), endpoint(10, 30*time.Second)}, []step{
			{at: 5 * time.Second, n: 10, want: ok(10, 0, 30*time.Second)},
			{at: 6 * time.Second, want: refused(10, 30*time.Second, 24*time.Second)},
			{at: 30 * time.Second, want: ok(10, 9, time.Minute)},
		}},
		{"general limit blocks first", []Limit{general(4), endpoint(800, time.Minute)}, []step{
			{at: 0, n: 4, want: ok(4, 0, 2*time.Minute)},
			// The endpoint window rolled over; the general one has not.
			{at: 61 * time.Second, want: refused(4, 2*time.Minute, 59*time.Second)},
			{at: 2 * time.Minute, want: ok(4, 3, 4*time.Minute)},
		}},
		{"headers show the fewest remaining", []Limit{general(1600), endpoint(800, time.Minute)}, []step{
			{at: 0, want: ok(800, 799, time.Minute)},
		}},
		{"tie goes to the first given", []Limit{endpoint(5, time.Minute), general(5)}, []step{
			{at: 0, want: ok(5, 4, time.Minute)},
		}},
		{"tie goes to the first given, reversed", []Limit{general(5), endpoint(5, time.Minute)}, []step{
			{at: 0, want: ok(5, 4, 2*time.Minute)},
		}},
		{"several exhausted: the one ending last blocks", []Limit{endpoint(1, time.Minute), general(1)}, []step{
			{at: 0, want: ok(1, 0, time.Minute)},
			{at: 10 * time.Second, want: refused(1, 2*time.Minute, 110*time.Second)},
			{at: time.Minute, want: refused(1, 2*time.Minute, time.Minute)},
		}},
		{"per-key isolation", []Limit{endpoint(1, time.Minute)}, []step{
			{at: 0, key: "alice", want: ok(1, 0, time.Minute)},
			{at: 0, key: "alice", want: refused(1, time.Minute, time.Minute)},
			{at: 0, key: "bob", want: ok(1, 0, time.Minute)},
			{at: 0, key: "203.0.113.7", want: ok(1, 0, time.Minute)},
		}},
		{"clock jumps forward", []Limit{endpoint(2, time.Minute)}, []step{
			{at: 0, n: 2, want: ok(2, 0, time.Minute)},
			{at: 24 * time.Hour, want: ok(2, 1, 24*time.Hour+time.Minute)},
		}},
		{"clock jumps backward", []Limit{general(3), endpoint(2, time.Minute)}, []step{
			{at: time.Hour, n: 2, want: ok(2, 0, time.Hour+time.Minute)},
			{at: time.Hour, want: refused(2, time.Hour+time.Minute, time.Minute)},
			// Back into an earlier window: fresh budgets, a Reset in that window, nothing negative.
			{at: time.Hour - 10*time.Second, n: 2, want: ok(2, 0, time.Hour)},
			{at: time.Hour - 10*time.Second, want: refused(2, time.Hour, 10*time.Second)},
			{at: -24 * time.Hour, n: 2, want: ok(2, 0, -24*time.Hour+time.Minute)},
		}},
		{"clock before the epoch", []Limit{endpoint(1, time.Minute)}, []step{
			{at: -t0.Sub(time.Unix(0, 0)) - time.Second, want: ok(1, 0, -t0.Sub(time.Unix(0, 0)))},
			{at: -t0.Sub(time.Unix(0, 0)) - time.Second, want: refused(1, -t0.Sub(time.Unix(0, 0)), time.Second)},
		}},
		{"unlimited only", []Limit{endpoint(0, time.Minute)}, []step{
			{at: 0, n: 1000, want: unlimited()},
		}},
		{"no limits", nil, []step{{at: 0, want: unlimited()}}},
		{"zero window is unlimited", []Limit{endpoint(1, 0)}, []step{{at: 0, n: 3, want: unlimited()}}},
		{"unlimited is left out of the headers", []Limit{general(0), endpoint(3, time.Minute)}, []step{
			{at: 0, want: ok(3, 2, time.Minute)},
		}},
		{"a scaled demo limit", []Limit{general(1600).Scale(0.01)}, []step{
			{at: 0, n: 16, want: ok(16, 0, 2*time.Minute)},
			{at: time.Second, want: refused(16, 2*time.Minute, 119*time.Second)},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clk := newFakeClock(t0)
			l := New(clk.now)
			for i, s := range tc.steps {
				clk.at(s.at)
				key := s.key
				if key == "" {
					key = "token-1"
				}
				var got Decision
				for j := range max(s.n, 1) {
					got = l.Take(key, tc.limits...)
					checkInvariants(t, got, tc.limits)
					if got.Allowed != s.want.Allowed {
						t.Fatalf("step %d, request %d: Allowed = %v, want %v (%+v)", i, j+1, got.Allowed, s.want.Allowed, got)
					}
				}
				if !got.Reset.Equal(s.want.Reset) {
					t.Errorf("step %d: Reset = %v, want %v", i, got.Reset, s.want.Reset)
				}
				got.Reset, s.want.Reset = time.Time{}, time.Time{}
				if got != s.want {
					t.Errorf("step %d: got %+v, want %+v", i, got, s.want)
				}
			}
		})
	}
}

// checkInvariants holds for every Decision, whatever the clock did.
func checkInvariants(t *testing.T, d Decision, limits []Limit) {
	t.Helper()
	if d.Remaining < 0 || d.RetryAfter < 0 {
		t.Fatalf("negative field in %+v", d)
	}
	if d.Allowed != (d.RetryAfter == 0) {
		t.Fatalf("RetryAfter must be set exactly when refused: %+v", d)
	}
	if !d.Allowed {
		longest := time.Duration(0)
		for _, lim := range limits {
			longest = max(longest, lim.Window)
		}
		if d.RetryAfter > longest {
			t.Fatalf("RetryAfter %v beyond the longest window %v", d.RetryAfter, longest)
		}
	}
}

func TestReset(t *testing.T) {
	clk := newFakeClock(t0)
	l := New(clk.now)
	lim := Limit{"general", 1, time.Minute}
	l.Take("alice", lim)
	if d := l.Take("alice", lim); d.Allowed {
		t.Fatalf("second request allowed before Reset: %+v", d)
	}
	l.Reset()
	if n := l.keys(); n != 0 {
		t.Fatalf("keys after Reset = %d, want 0", n)
	}
	if d := l.Take("alice", lim); !d.Allowed {
		t.Fatalf("request refused after Reset: %+v", d)
	}
}

// TestConcurrentTake runs 64 goroutines at one instant: exactly the tightest Max per key passes,
// whatever the interleaving (run with -race).
func TestConcurrentTake(t *testing.T) {
	cases := []struct {
		name   string
		keys   int
		limits []Limit
		want   int // allowed per key
	}{
		{"one key, one limit", 1, []Limit{{"endpoint", 800, time.Minute}}, 800},
		{"one key, endpoint tighter", 1, []Limit{{"general", 1600, 2 * time.Minute}, {"endpoint", 500, time.Minute}}, 500},
		{"one key, general tighter", 1, []Limit{{"general", 300, 2 * time.Minute}, {"endpoint", 800, time.Minute}}, 300},
		{"eight keys", 8, []Limit{{"general", 1600, 2 * time.Minute}, {"endpoint", 100, time.Minute}}, 100},
	}
	const goroutines, perGoroutine = 64, 100
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clk := newFakeClock(t0.Add(17 * time.Second))
			l := New(clk.now)
			allowed := make([]atomic.Int64, tc.keys)
			var wg sync.WaitGroup
			for g := range goroutines {
				wg.Go(func() {
					for i := range perGoroutine {
						k := (g + i) % tc.keys
						if l.Take(fmt.Sprintf("key-%d", k), tc.limits...).Allowed {
							allowed[k].Add(1)
						}
					}
				})
			}
			wg.Wait()
			for k := range allowed {
				if got := allowed[k].Load(); got != int64(tc.want) {
					t.Errorf("key-%d: %d allowed, want %d", k, got, tc.want)
				}
			}
		})
	}
}
