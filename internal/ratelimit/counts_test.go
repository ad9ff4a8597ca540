package ratelimit

import (
	"testing"
	"time"
)

// TestCounts: the throttles and the limiter count what the metrics export — failed and refused
// sign-ins and guesses, and refusals by limit name — and a Reset clears none of it.
func TestCounts(t *testing.T) {
	clk := &fakeNow{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := NewSignIns(clk.now, testPolicy, LockPolicy{Free: 100, First: time.Minute, Max: time.Hour, Forget: time.Hour})
	_ = try(s, "alice", "ip1", true)
	for range 3 {
		_ = try(s, "bob", "ip1", false)
	}
	if err := try(s, "bob", "ip1", true); err == nil {
		t.Fatal("bob not locked after 3 failures")
	}
	s.Reset()
	if got, want := s.Counts(), (Counts{Failed: 3, Refused: 1}); got != want {
		t.Fatalf("sign-in counts %+v, want %+v", got, want)
	}

	g := NewGuesses(clk.now, testPolicy)
	_ = g.Guess("ip1", true)
	for range 3 {
		_ = g.Guess("ip1", false)
	}
	_ = g.Guess("ip1", true)
	_ = g.Guess("ip1", false)
	if got, want := g.Counts(), (Counts{Failed: 3, Refused: 2}); got != want {
		t.Fatalf("guess counts %+v, want %+v", got, want)
	}

	l := New(clk.now)
	general := Limit{Name: "general", Max: 5, Window: time.Minute}
	own := Limit{Name: "endpoint:GET /x", Max: 2, Window: time.Minute}
	for range 4 {
		l.Take("k", general, own)
	}
	l.Take("other", Limit{Name: "general", Max: 1, Window: time.Minute})
	l.Take("other", Limit{Name: "general", Max: 1, Window: time.Minute})
	l.Reset()
	got := l.Refusals()
	if len(got) != 2 || got["endpoint:GET /x"] != 2 || got["general"] != 1 {
		t.Fatalf("refusals %v, want endpoint:GET /x 2, general 1", got)
	}
}
