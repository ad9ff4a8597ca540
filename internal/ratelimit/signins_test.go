package ratelimit

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// fakeNow is a settable clock.
type fakeNow struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeNow) now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.t }
func (f *fakeNow) advance(d time.Duration) {
	f.mu.Lock()
	f.t = f.t.Add(d)
	f.mu.Unlock()
}

var testPolicy = LockPolicy{Free: 3, First: 10 * time.Second, Max: 40 * time.Second, Forget: time.Hour}

// try begins and ends a sign-in; it returns the refusal, if any.
func try(s *SignIns, user, ip string, ok bool) error {
	a, err := s.Begin(user, ip)
	if err != nil {
		return err
	}
	a.End(ok)
	return nil
}

func retryAfter(t *testing.T, err error) time.Duration {
	t.Helper()
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("got %v, want a *LockedError", err)
	}
	return le.RetryAfter
}

// TestSignInsLockAndBackOff: Free failures lock the user for First; the right password is then
// refused too; after the lock one more failure locks twice as long, up to Max; a success
// forgives the user.
func TestSignInsLockAndBackOff(t *testing.T) {
	clk := &fakeNow{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := NewSignIns(clk.now, testPolicy, LockPolicy{Free: 100, First: time.Minute, Max: time.Hour, Forget: time.Hour})
	for i := range 3 {
		if err := try(s, "alice", "ip1", false); err != nil {
			t.Fatalf("failure %d refused: %v", i+1, err)
		}
	}
	if d := retryAfter(t, try(s, "alice", "ip1", true)); d != 10*time.Second {
		t.Fatalf("first lock %v, want 10s", d)
	}
	if err := try(s, "bob", "ip2", true); err != nil {
		t.Fatalf("another user from another IP: %v", err)
	}
	clk.advance(4 * time.Second)
	var le *LockedError
	if err := try(s, "alice", "ip3", true); !errors.As(err, &le) || le.Seconds() != 6 || le.Error() != "Too many failed sign-ins. Try again in 6 seconds." {
		t.Fatalf("from another IP, 4 s later: %v", err)
	}
	for _, want := range []time.Duration{20 * time.Second, 40 * time.Second, 40 * time.Second} {
		clk.advance(time.Minute)
		if err := try(s, "alice", "ip1", false); err != nil {
			t.Fatalf("after the lock: %v", err)
		}
		if d := retryAfter(t, try(s, "alice", "ip1", true)); d != want {
			t.Fatalf("lock %v, want %v", d, want)
		}
	}
	clk.advance(time.Minute)
	if err := try(s, "alice", "ip1", true); err != nil {
		t.Fatalf("the right password after the lock: %v", err)
	}
	// Forgiven: three failures again before a lock.
	for range 3 {
		if err := try(s, "alice", "ip1", false); err != nil {
			t.Fatalf("forgiven user refused: %v", err)
		}
	}
	if d := retryAfter(t, try(s, "alice", "ip1", false)); d != 10*time.Second {
		t.Fatalf("lock after forgiveness %v, want 10s", d)
	}
	// Failures older than Forget are forgotten.
	clk.advance(2 * time.Hour)
	for range 3 {
		if err := try(s, "alice", "ip1", false); err != nil {
			t.Fatalf("an hour later: %v", err)
		}
	}
}

// TestSignInsByIP: an IP is locked after its own Free failures over any users, so spreading
// guesses over many logins does not help; a success does not wipe the IP's failures; other IPs
// are untouched.
func TestSignInsByIP(t *testing.T) {
	clk := &fakeNow{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := NewSignIns(clk.now, LockPolicy{Free: 100, First: time.Minute, Max: time.Hour, Forget: time.Hour}, testPolicy)
	try(s, "u1", "ip1", false)
	try(s, "u2", "ip1", false)
	try(s, "mine", "ip1", true)
	try(s, "u3", "ip1", false)
	if d := retryAfter(t, try(s, "mine", "ip1", true)); d != 10*time.Second {
		t.Fatalf("IP lock %v", d)
	}
	if err := try(s, "mine", "ip2", true); err != nil {
		t.Fatalf("the same user from another IP: %v", err)
	}
	clk.advance(10 * time.Second)
	if err := try(s, "mine", "ip1", true); err != nil {
		t.Fatalf("after the IP lock: %v", err)
	}
}

// TestSignInsConcurrent: attempts still running count against the free failures, so a burst
// of parallel guesses runs no more checks than Free.
func TestSignInsConcurrent(t *testing.T) {
	clk := &fakeNow{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := NewSignIns(clk.now, testPolicy, LockPolicy{Free: 100, First: time.Minute, Max: time.Hour, Forget: time.Hour})
	var running []*Attempt
	for range 10 {
		if a, err := s.Begin("alice", "ip"); err == nil {
			running = append(running, a)
		}
	}
	if len(running) != 3 {
		t.Fatalf("%d attempts under way, want 3", len(running))
	}
	for _, a := range running {
		a.End(false)
	}
	if _, err := s.Begin("alice", "ip"); err == nil {
		t.Fatal("not locked after three failures")
	}
}

// TestSignInsClockBackAndReset: a clock set back ends a lock (as it restarts rate-limit
// windows), and Reset forgets everything.
func TestSignInsClockBackAndReset(t *testing.T) {
	clk := &fakeNow{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := NewSignIns(clk.now, testPolicy, testPolicy)
	for range 3 {
		try(s, "alice", "ip", false)
	}
	if err := try(s, "alice", "ip", true); err == nil {
		t.Fatal("not locked")
	}
	clk.advance(-time.Minute)
	if err := try(s, "alice", "ip", true); err != nil {
		t.Fatalf("clock set back: %v", err)
	}
	for range 3 {
		try(s, "bob", "ip2", false)
	}
	s.Reset()
	if err := try(s, "bob", "ip2", true); err != nil {
		t.Fatalf("after Reset: %v", err)
	}
}

// TestLockPolicyDoubling: the lock doubles per failure past Free and stops at Max.
func TestLockPolicyDoubling(t *testing.T) {
	p := LockPolicy{Free: 5, First: 30 * time.Second, Max: 15 * time.Minute}
	for n, want := range map[int]time.Duration{4: 0, 5: 30 * time.Second, 6: time.Minute, 9: 8 * time.Minute, 10: 15 * time.Minute, 1000: 15 * time.Minute} {
		if got := p.lockFor(n); got != want {
			t.Errorf("lockFor(%d) = %v, want %v", n, got, want)
		}
	}
}

// TestWastePasswordCheckCosts: the dummy check costs a real bcrypt run (DefaultCost), not a
// lookup's microseconds.
func TestWastePasswordCheckCosts(t *testing.T) {
	start := time.Now()
	WastePasswordCheck("guess")
	if d := time.Since(start); d < 5*time.Millisecond {
		t.Fatalf("dummy check took %v; a DefaultCost bcrypt takes tens of ms", d)
	}
}
