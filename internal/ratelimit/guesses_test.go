package ratelimit

import (
	"sync"
	"testing"
	"time"
)

// TestGuesses: Free wrong guesses from one IP lock it for First, right guesses too; other IPs
// go on; after the lock one more wrong guess locks twice as long, up to Max; a right guess once
// the lock has passed forgets the IP's failures; a quiet hour forgets them too.
func TestGuesses(t *testing.T) {
	clk := &fakeNow{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	g := NewGuesses(clk.now, testPolicy)
	for i := range 3 {
		if err := g.Guess("ip1", false); err != nil {
			t.Fatalf("wrong guess %d refused: %v", i+1, err)
		}
	}
	if d := retryAfter(t, g.Guess("ip1", true)); d != 10*time.Second {
		t.Fatalf("first lock %v, want 10s", d)
	}
	if d := retryAfter(t, g.Guess("ip1", false)); d != 10*time.Second {
		t.Fatalf("a refused guess moved the lock: %v", d)
	}
	if err := g.Guess("ip2", true); err != nil {
		t.Fatalf("another IP: %v", err)
	}
	if err := g.Guess("ip2", false); err != nil {
		t.Fatalf("another IP's first wrong guess: %v", err)
	}
	for _, want := range []time.Duration{20 * time.Second, 40 * time.Second, 40 * time.Second} {
		clk.advance(time.Minute)
		if err := g.Guess("ip1", false); err != nil {
			t.Fatalf("wrong guess after the lock: %v", err)
		}
		if d := retryAfter(t, g.Guess("ip1", true)); d != want {
			t.Fatalf("lock %v, want %v", d, want)
		}
	}
	clk.advance(time.Minute)
	if err := g.Guess("ip1", true); err != nil {
		t.Fatalf("right guess after the lock: %v", err)
	}
	for i := range 3 {
		if err := g.Guess("ip1", false); err != nil {
			t.Fatalf("a right guess did not forget: wrong guess %d refused: %v", i+1, err)
		}
	}
	retryAfter(t, g.Guess("ip1", true))
	clk.advance(2 * time.Hour)
	for i := range 3 {
		if err := g.Guess("ip1", false); err != nil {
			t.Fatalf("a quiet hour did not forget: wrong guess %d refused: %v", i+1, err)
		}
	}
	if g.ips.keys["ip2"] == nil || len(g.ips.keys) != 2 {
		t.Fatalf("keys %v", g.ips.keys)
	}
	g.Guess("ip3", true)
	if g.ips.keys["ip3"] != nil {
		t.Fatal("a right guess from a new IP is remembered")
	}
}

// TestGuessesConcurrent: many wrong guesses at once from one IP get no more than Free through.
func TestGuessesConcurrent(t *testing.T) {
	clk := &fakeNow{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	g := NewGuesses(clk.now, testPolicy)
	var wg sync.WaitGroup
	var mu sync.Mutex
	through := 0
	for range 50 {
		wg.Go(func() {
			if g.Guess("ip1", false) == nil {
				mu.Lock()
				through++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if through != testPolicy.Free {
		t.Fatalf("%d wrong guesses counted, want %d", through, testPolicy.Free)
	}
}
