package buildsvc

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// TestAuthenticateThrottle (issue 13): five wrong passwords lock a login at that address for
// 30 s, whatever the password; from another address the right password signs in (issue 32:
// nobody locks anybody out); another person from another IP signs in meanwhile; after the lock a
// failure locks twice as long; the right password after a lock signs in.
func TestAuthenticateThrottle(t *testing.T) {
	s := peopleService(t,
		buildstore.Person{Login: "alice", State: buildstore.StateConfirmed},
		buildstore.Person{Login: "bob", State: buildstore.StateConfirmed})
	clk := s.clk.(*clock.Fixed)
	for range 5 {
		if _, err := s.Authenticate("alice", "guess", "10.0.0.1"); !errors.Is(err, ErrBadCredentials) {
			t.Fatalf("a wrong password: %v", err)
		}
	}
	var locked *ratelimit.LockedError
	if _, err := s.Authenticate("alice", "alice-password", "10.0.0.1"); !errors.As(err, &locked) || locked.RetryAfter != 30*time.Second {
		t.Fatalf("the right password while locked, from the same IP: %v", err)
	}
	if p, err := s.Authenticate("alice", "alice-password", "10.0.0.9"); err != nil || p.Login != "alice" {
		t.Fatalf("the right password from another IP: %v", err)
	}
	if p, err := s.Authenticate("bob", "bob-password", "10.0.0.2"); err != nil || p.Login != "bob" {
		t.Fatalf("bob from another IP: %v", err)
	}
	clk.Advance(30 * time.Second)
	if _, err := s.Authenticate("alice", "guess", "10.0.0.1"); !errors.Is(err, ErrBadCredentials) {
		t.Fatalf("after the lock: %v", err)
	}
	if _, err := s.Authenticate("alice", "alice-password", "10.0.0.1"); !errors.As(err, &locked) || locked.RetryAfter != time.Minute {
		t.Fatalf("the second lock: %v, want 1m", err)
	}
	clk.Advance(time.Minute)
	if p, err := s.Authenticate("alice", "alice-password", "10.0.0.1"); err != nil || p.Login != "alice" {
		t.Fatalf("the right password after the lock: %v", err)
	}
}

// TestAuthenticateThrottleByIP: twenty failures from one IP over any logins lock the IP, also
// for a person with the right password; other IPs are unaffected.
func TestAuthenticateThrottleByIP(t *testing.T) {
	s := peopleService(t, buildstore.Person{Login: "alice", State: buildstore.StateConfirmed})
	for i := range 20 {
		if _, err := s.Authenticate("ghost"+string(rune('a'+i)), "guess", "10.0.0.1"); !errors.Is(err, ErrBadCredentials) {
			t.Fatalf("guess %d: %v", i+1, err)
		}
	}
	var locked *ratelimit.LockedError
	if _, err := s.Authenticate("alice", "alice-password", "10.0.0.1"); !errors.As(err, &locked) {
		t.Fatalf("a locked IP: %v", err)
	}
	if _, err := s.Authenticate("alice", "alice-password", "10.0.0.2"); err != nil {
		t.Fatalf("another IP: %v", err)
	}
}

// TestAuthenticateUnknownCostsAsMuch: an unknown login takes as long as a wrong password (a
// bcrypt run against a dummy hash), so the timing does not tell who exists. Medians of five.
func TestAuthenticateUnknownCostsAsMuch(t *testing.T) {
	persons := []buildstore.Person{}
	for _, l := range []string{"p0", "p1", "p2", "p3", "p4"} {
		persons = append(persons, buildstore.Person{Login: l, State: buildstore.StateConfirmed})
	}
	s := peopleService(t, persons...)
	median := func(login func(int) string) time.Duration {
		var d []time.Duration
		for i := range 5 {
			start := time.Now()
			if _, err := s.Authenticate(login(i), "wrong-password", ""); !errors.Is(err, ErrBadCredentials) {
				t.Fatal(err)
			}
			d = append(d, time.Since(start))
		}
		slices.Sort(d)
		return d[2]
	}
	wrong := median(func(i int) string { return persons[i].Login })
	unknown := median(func(i int) string { return "nobody" + persons[i].Login })
	t.Logf("wrong password %v, unknown login %v", wrong, unknown)
	if unknown*3 < wrong || wrong*3 < unknown {
		t.Fatalf("unknown login %v vs wrong password %v: more than a factor 3 apart", unknown, wrong)
	}
}

// TestReplacedForgetsThrottle: after the data is replaced, a locked login and a locked IP sign
// in with the right password at once.
func TestReplacedForgetsThrottle(t *testing.T) {
	s := peopleService(t, buildstore.Person{Login: "alice", State: buildstore.StateConfirmed})
	for i := range 20 {
		login := "alice"
		if i >= 5 {
			login = "ghost" + string(rune('a'+i))
		}
		s.Authenticate(login, "guess", "10.0.0.1")
	}
	var locked *ratelimit.LockedError
	if _, err := s.Authenticate("alice", "alice-password", "10.0.0.1"); !errors.As(err, &locked) {
		t.Fatalf("alice not locked: %v", err)
	}
	s.Replaced()
	if _, err := s.Authenticate("alice", "alice-password", "10.0.0.1"); err != nil {
		t.Fatalf("after Replaced: %v", err)
	}
}
