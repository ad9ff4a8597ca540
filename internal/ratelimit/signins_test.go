package ratelimit

import (
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
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

// TestSignInsLockAndBackOff: Free failures lock the user at that address for First; the right
// password is then refused there too, not from another address; after the lock one more failure locks twice as long, up to Max; a success
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
	if err := try(s, "alice", "ip1", true); !errors.As(err, &le) || le.Seconds() != 6 || le.Error() != "Too many failed sign-ins. Try again in 6 seconds." {
		t.Fatalf("from the same IP, 4 s later: %v", err)
	}
	if err := try(s, "alice", "ip3", true); err != nil { // issue 32: the lock is ip1's only
		t.Fatalf("the right password from another IP: %v", err)
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

// TestSignInsGuessBurstWaits: a burst of parallel guesses runs no more checks than the free
// failures left; the rest wait for a turn and, once those checks fail and lock the user, are
// refused unchecked.
func TestSignInsGuessBurstWaits(t *testing.T) {
	clk := &fakeNow{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := NewSignIns(clk.now, testPolicy, LockPolicy{Free: 100, First: time.Minute, Max: time.Hour, Forget: time.Hour})
	var running []*Attempt
	for range 3 {
		a, err := s.Begin("alice", "ip")
		if err != nil {
			t.Fatalf("one of the free attempts refused: %v", err)
		}
		running = append(running, a)
	}
	results := make(chan error, 7)
	for range 7 {
		go func() {
			a, err := s.Begin("alice", "ip")
			if err == nil {
				a.End(false)
			}
			results <- err
		}()
	}
	select {
	case err := <-results:
		t.Fatalf("a fourth attempt ran beside three: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	for _, a := range running {
		a.End(false)
	}
	for range 7 {
		if err := <-results; retryAfter(t, err) != 10*time.Second {
			t.Fatalf("waiting guess: %v, want the 10 s lock", err)
		}
	}
	if got := s.Counts(); got.Failed != 3 || got.Refused != 7 {
		t.Fatalf("counts %+v: want 3 checks failed and 7 refused", got)
	}
}

// TestSignInsRightPasswordBurst: 64 sign-ins at once with the right password all pass, with no
// more than the free failures' worth of checks running at any moment.
func TestSignInsRightPasswordBurst(t *testing.T) {
	clk := &fakeNow{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := NewSignIns(clk.now, testPolicy, LockPolicy{Free: 20, First: time.Minute, Max: time.Hour, Forget: time.Hour})
	var now, most atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, err := s.Begin("alice", "ip")
			if err != nil {
				errs <- err
				return
			}
			n := now.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(time.Millisecond) // the check
			now.Add(-1)
			a.End(true)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("right password refused: %v", err)
	}
	if m := most.Load(); m > 3 {
		t.Fatalf("%d checks ran at once, want at most 3", m)
	}
	if got := s.Counts(); got != (Counts{}) {
		t.Fatalf("counts %+v, want none", got)
	}
}

// TestSignInsSuccessFreesWaiters: with two failures counted, one check runs at a time; the
// attempt waiting behind it runs once that one succeeds, and a wait that outlasts the queue
// is refused for a second.
func TestSignInsSuccessFreesWaiters(t *testing.T) {
	clk := &fakeNow{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := NewSignIns(clk.now, testPolicy, LockPolicy{Free: 100, First: time.Minute, Max: time.Hour, Forget: time.Hour})
	try(s, "alice", "ip", false)
	try(s, "alice", "ip", false)
	first, err := s.Begin("alice", "ip")
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		a, err := s.Begin("alice", "ip")
		if err == nil {
			a.End(true)
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("a second check ran beside the last free one: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	first.End(true)
	if err := <-got; err != nil {
		t.Fatalf("the waiting attempt after a success: %v", err)
	}

	try(s, "alice", "ip", false)
	try(s, "alice", "ip", false)
	s.queue = 30 * time.Millisecond
	first, _ = s.Begin("alice", "ip")
	if d := retryAfter(t, try(s, "alice", "ip", true)); d != time.Second {
		t.Fatalf("a wait past the queue: Retry-After %v, want 1s", d)
	}
	first.End(true)
}

// TestSignInsAdmit: a remembered right password takes no turn (it passes while checks fill
// every turn), is refused while the user or the IP is locked, and ends the user's count.
func TestSignInsAdmit(t *testing.T) {
	clk := &fakeNow{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := NewSignIns(clk.now, testPolicy, testPolicy)
	var running []*Attempt
	for range 3 {
		a, _ := s.Begin("alice", "ip")
		running = append(running, a)
	}
	if err := s.Admit("alice", "ip"); err != nil {
		t.Fatalf("remembered password beside running checks: %v", err)
	}
	for _, a := range running {
		a.End(false)
	}
	if d := retryAfter(t, s.Admit("alice", "ip")); d != 10*time.Second {
		t.Fatalf("locked user: %v", d)
	}
	if err := s.Admit("alice", "ip2"); err != nil {
		t.Fatalf("the locked user from another address: %v", err)
	}
	try(s, "dave", "ip4", false)
	try(s, "dave", "ip5", false)
	if err := s.Admit("dave", "ip3"); err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // forgiven: the free failures are free again
		if err := try(s, "dave", "ip"+strconv.Itoa(6+i), false); err != nil {
			t.Fatalf("after Admit: %v", err)
		}
	}
	for range 3 {
		try(s, "bob", "ip9", false)
	}
	if err := s.Admit("carol", "ip9"); err == nil {
		t.Fatal("a locked IP admitted")
	}
	if got := s.Counts(); got.Refused != 2 {
		t.Fatalf("counts %+v, want 2 refused", got)
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

// TestSignInsAnyoneCannotLockAnyoneOut (issue 32): a guesser's wrong passwords lock the user at
// the guesser's address only — the right password from another address goes through at once —
// and wrong passwords from many addresses only slow the user's sign-ins (past 20 in a row, a
// second before each check), never refuse them.
func TestSignInsAnyoneCannotLockAnyoneOut(t *testing.T) {
	clk := &fakeNow{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := NewSignIns(clk.now, testPolicy, LockPolicy{Free: 5, First: time.Minute, Max: time.Hour, Forget: time.Hour})
	var slept time.Duration
	s.sleep = func(d time.Duration) { slept += d }
	for range 10 {
		try(s, "Admin", "guesser", false)
	}
	if err := try(s, "Admin", "guesser", true); err == nil {
		t.Fatal("the guesser's address is not locked")
	}
	if err := try(s, "Admin", "operator", true); err != nil || slept != 0 {
		t.Fatalf("the operator's right password: %v (slept %v)", err, slept)
	}
	// 25 wrong passwords from 25 addresses (each under its own IP's and pair's limits)
	for i := range 25 {
		if err := try(s, "Admin", "bot"+strconv.Itoa(i), false); err != nil {
			t.Fatalf("guess %d refused: %v", i, err)
		}
	}
	if slept != 5*maxSlow {
		t.Fatalf("slept %v over the guesses past the 20th, want %v", slept, 5*maxSlow)
	}
	slept = 0
	if err := try(s, "Admin", "operator", true); err != nil || slept != maxSlow {
		t.Fatalf("the right password after the spread guesses: %v (slept %v, want %v)", err, slept, maxSlow)
	}
	slept = 0
	if err := try(s, "Admin", "operator", true); err != nil || slept != 0 {
		t.Fatalf("a success forgives the slowing: %v (slept %v)", err, slept)
	}
}
