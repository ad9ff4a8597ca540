package cloudapi

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestLoginThrottle (issue 13): after five wrong passwords the sign-in form answers 429 with
// Retry-After and says why, also for the right password; another user signs in meanwhile; once
// the appliance clock passes the lock, the right password signs in.
func TestLoginThrottle(t *testing.T) {
	e := newEnv(t, 0)
	post := func(user, password string) resp {
		params := url.Values{"client_id": {cliClient}, "username": {user}, "password": {password}, "decision": {"approve"}}
		return e.do(t, req{method: "POST", path: "/oauth/authorize", body: params.Encode(), header: form})
	}
	for i := range 5 {
		if r := post("demo", "guess"); r.Status != 401 {
			t.Fatalf("wrong password %d: %d", i+1, r.Status)
		}
	}
	for _, password := range []string{"guess", "demo-password"} {
		r := post("demo", password)
		if r.Status != 429 || r.Header.Get("Retry-After") != "30" || !strings.Contains(r.Body, "Too many failed sign-ins. Try again in 30 seconds.") ||
			!strings.Contains(r.Body, `<form method="post" action="/oauth/authorize">`) {
			t.Fatalf("locked, %s: %d %q %s", password, r.Status, r.Header.Get("Retry-After"), r.Body)
		}
	}
	if loc := e.authorize(t, url.Values{"client_id": {cliClient}}, "carol", "carol-password"); loc.Query().Get("code") == "" {
		t.Fatalf("carol: %s", loc)
	}
	e.clock.Advance(30 * time.Second)
	if loc := e.authorize(t, url.Values{"client_id": {cliClient}}, "demo", "demo-password"); loc.Query().Get("code") == "" {
		t.Fatalf("after the lock: %s", loc)
	}
}
