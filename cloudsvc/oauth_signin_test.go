package cloudsvc_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
)

const cliClient = "5c0c4e7f1d2a3b4c5d6e" // the demo world's Pocket CLI client

// authorize signs in on the login server for a code of the Pocket CLI client.
func (w *world) authorize(user, password, ip string) (string, error) {
	w.t.Helper()
	cl, err := w.svc.Client(cliClient)
	if err != nil {
		w.t.Fatal(err)
	}
	code, _, err := w.svc.Authorize(user, password, ip, cloudsvc.AuthGrant{Client: cl, Scopes: "*"})
	return code, err
}

// TestAuthorizeThrottle (issue 13): five wrong passwords lock a username (in any case) at that
// address for 30 s, also for the right password — not from another address (issue 32); another user from another IP signs
// in meanwhile; the right password signs in once the clock passes the lock.
func TestAuthorizeThrottle(t *testing.T) {
	w := newWorld(t)
	for range 5 {
		if _, err := w.authorize("demo", "guess", "10.0.0.1"); !errors.Is(err, cloudsvc.ErrLoginFailed) {
			t.Fatalf("a wrong password: %v", err)
		}
	}
	var locked *ratelimit.LockedError
	if _, err := w.authorize("DEMO", "demo-password", "10.0.0.1"); !errors.As(err, &locked) || locked.RetryAfter != 30*time.Second {
		t.Fatalf("the right password while locked: %v", err)
	}
	if code, err := w.authorize("demo", "demo-password", "10.0.0.9"); err != nil || code == "" {
		t.Fatalf("demo's right password from another IP: %q %v", code, err)
	}
	if code, err := w.authorize("carol", "carol-password", "10.0.0.2"); err != nil || code == "" {
		t.Fatalf("carol from another IP: %q %v", code, err)
	}
	w.clk.Advance(30 * time.Second)
	if code, err := w.authorize("demo", "demo-password", "10.0.0.1"); err != nil || code == "" {
		t.Fatalf("after the lock: %q %v", code, err)
	}
}

// TestAuthorizeThrottleByIP: twenty failures from one IP over any usernames lock the IP.
func TestAuthorizeThrottleByIP(t *testing.T) {
	w := newWorld(t)
	for i := range 20 {
		if _, err := w.authorize("ghost"+string(rune('a'+i)), "guess", "10.0.0.1"); !errors.Is(err, cloudsvc.ErrLoginFailed) {
			t.Fatalf("guess %d: %v", i+1, err)
		}
	}
	var locked *ratelimit.LockedError
	if _, err := w.authorize("demo", "demo-password", "10.0.0.1"); !errors.As(err, &locked) {
		t.Fatalf("a locked IP: %v", err)
	}
	if _, err := w.authorize("demo", "demo-password", "10.0.0.2"); err != nil {
		t.Fatalf("another IP: %v", err)
	}
}

// TestAuthorizeUnknownCostsAsMuch: an unknown username takes as long as a wrong password, so
// the timing does not tell which usernames exist. Medians of five.
func TestAuthorizeUnknownCostsAsMuch(t *testing.T) {
	w := newWorld(t)
	median := func(user func(int) string) time.Duration {
		var d []time.Duration
		for i := range 5 {
			start := time.Now()
			if _, err := w.authorize(user(i), "wrong-password", ""); !errors.Is(err, cloudsvc.ErrLoginFailed) {
				t.Fatal(err)
			}
			d = append(d, time.Since(start))
		}
		slices.Sort(d)
		return d[2]
	}
	wrong := median(func(int) string { return "demo" })
	unknown := median(func(i int) string { return "nobody" + string(rune('a'+i)) })
	t.Logf("wrong password %v, unknown username %v", wrong, unknown)
	if unknown*3 < wrong || wrong*3 < unknown {
		t.Fatalf("unknown username %v vs wrong password %v: more than a factor 3 apart", unknown, wrong)
	}
}

// TestReplacedForgetsThrottle: after the data is replaced, a locked username and a locked IP
// sign in with the right password at once.
func TestReplacedForgetsThrottle(t *testing.T) {
	w := newWorld(t)
	for i := range 20 {
		user := "demo"
		if i >= 5 {
			user = "ghost" + string(rune('a'+i))
		}
		w.authorize(user, "guess", "10.0.0.1")
	}
	var locked *ratelimit.LockedError
	if _, err := w.authorize("demo", "demo-password", "10.0.0.1"); !errors.As(err, &locked) {
		t.Fatalf("demo not locked: %v", err)
	}
	w.svc.Replaced()
	if code, err := w.authorize("demo", "demo-password", "10.0.0.1"); err != nil || code == "" {
		t.Fatalf("after Replaced: %q %v", code, err)
	}
}
