package ratelimit

import (
	"fmt"
	"testing"
	"time"
)

func TestSweep(t *testing.T) {
	short := Limit{"endpoint", 1, time.Minute}
	long := Limit{"general", 1, 2 * time.Minute}
	cases := []struct {
		name string
		// run drives the limiter and returns how many keys should hold counters afterwards (at
		// most, when exact is false).
		run   func(clk *fakeClock, l *Limiter) int
		exact bool
	}{
		{"ended windows are dropped by the timer", func(clk *fakeClock, l *Limiter) int {
			takeMany(l, "ip", 100, short)
			clk.at(61 * time.Second)
			return touchAll(l, short)
		}, true},
		{"open windows survive", func(clk *fakeClock, l *Limiter) int {
			takeMany(l, "ip", 100, short, long)
			clk.at(61 * time.Second) // the endpoint window ended, the general one has not
			return 100 + touchAll(l, short)
		}, true},
		{"no sweep before the timer", func(clk *fakeClock, l *Limiter) int {
			takeMany(l, "ip", 100, short)
			clk.at(29 * time.Second)
			return 100 + touchAll(l, short)
		}, true},
		{"a clock set back sweeps", func(clk *fakeClock, l *Limiter) int {
			clk.at(time.Hour)
			takeMany(l, "ip", 100, short)
			clk.at(time.Hour - 10*time.Minute)
			return touchAll(l, short)
		}, true},
		{"a flood of short-lived keys stays bounded between timer sweeps", func(clk *fakeClock, l *Limiter) int {
			tiny := Limit{"tiny", 1, 10 * time.Millisecond}
			for i := range 20000 { // 20 s of clock: the timer never fires
				clk.at(time.Duration(i) * time.Millisecond)
				l.Take(fmt.Sprintf("198.51.100.%d", i), tiny)
			}
			return shardCount * minSweepLen
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clk := newFakeClock(t0)
			l := New(clk.now)
			want := tc.run(clk, l)
			got := l.keys()
			if (tc.exact && got != want) || got > want {
				t.Fatalf("keys = %d, want %s%d", got, map[bool]string{true: "", false: "<= "}[tc.exact], want)
			}
		})
	}
}

// takeMany takes one request for each of n keys named prefix-0 … prefix-(n-1).
func takeMany(l *Limiter, prefix string, n int, limits ...Limit) {
	for i := range n {
		l.Take(fmt.Sprintf("%s-%d", prefix, i), limits...)
	}
}

// touchAll takes one request for new keys until every shard has seen one (sweeps run per shard,
// on that shard's Takes) and returns how many keys it used.
func touchAll(l *Limiter, limits ...Limit) int {
	seen := make(map[uint64]bool)
	n := 0
	for i := 0; len(seen) < len(l.shards); i++ {
		key := fmt.Sprintf("late-%d", i)
		if s := l.shardIndex(key); !seen[s] {
			seen[s] = true
			l.Take(key, limits...)
			n++
		}
	}
	return n
}
