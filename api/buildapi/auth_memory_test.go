package buildapi

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestBasicAuthBurst (issue 31): 64 requests at once with the right password, right after a
// start (nothing remembered yet), all pass — the throttle counts failures, not sign-ins in
// flight; five wrong passwords still lock the login, the right password too.
func TestBasicAuthBurst(t *testing.T) {
	e := newEnv(t)
	statuses := make(chan int, 64)
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := httptest.NewRequest("GET", "/about", nil)
			r.Header.Set("Authorization", asAlice["Authorization"])
			resp, err := e.app.Test(r, -1)
			if err != nil {
				statuses <- 0
				return
			}
			resp.Body.Close()
			statuses <- resp.StatusCode
		}()
	}
	wg.Wait()
	close(statuses)
	for s := range statuses {
		if s != 200 {
			t.Errorf("right password in a burst: %d", s)
		}
	}
	for i := range 5 {
		if got := apitest.Do(t, e.app, req("GET", "/about", basic("alice", "guess-"+strconv.Itoa(i)), "")); got.Status != 401 {
			t.Fatalf("wrong password %d: %d", i+1, got.Status)
		}
	}
	e.run(t, []scenario{{"the right password after five wrong", req("GET", "/about", asAlice, ""),
		apitest.Expect{Status: 429, Header: map[string]string{"Retry-After": "30"}}}})
}

// TestRememberedCredentials (issue 31): a Basic credential verified once is remembered, but a
// wrong password after it is still the challenge at once, and a password change, a lock and a
// deleted token take effect on the very next request.
func TestRememberedCredentials(t *testing.T) {
	e := newEnv(t)
	bobsWorld(t, e)
	token := e.newToken(t, "bob", asBob, "&project=home:bob&package=svc")
	challenge := apitest.Expect{Status: 401, Header: map[string]string{"WWW-Authenticate": `Basic realm="API login"`}}
	e.run(t, []scenario{
		{"alice signs in", req("GET", "/about", asAlice, ""), ok200},
		{"remembered", req("GET", "/about", asAlice, ""), ok200},
		{"a wrong password after the right one", req("GET", "/about", basic("alice", "alice-passwore"), ""), challenge},
		{"the right one again", req("GET", "/about", asAlice, ""), ok200},
		{"alice changes her password", req("POST", "/person/alice?cmd=change_password", asAlice, "alice-new-password"), ok},
		{"the old one ends at once", req("GET", "/about", asAlice, ""), challenge},
		{"the new one signs in", req("GET", "/about", basic("alice", "alice-new-password"), ""), ok200},
		{"bob signs in", req("GET", "/about", asBob, ""), ok200},
		{"the token runs", req("POST", "/trigger/runservice", withToken(token), ""), ok},
		{"bob deletes it", req("DELETE", "/person/bob/token/1", asBob, ""), ok},
		{"the token ends at once", req("POST", "/trigger/runservice", withToken(token), ""), code(404, "not_found", "Token not found")},
		{"Admin locks bob", req("POST", "/person/bob?cmd=lock", asAdmin, ""), ok},
		{"bob's remembered password ends at once", req("GET", "/about", asBob, ""), inactive},
	})
}

// TestBasicWithoutCookieKeepsOneSession (issue 31): a client that sends Basic on every request
// and keeps no cookie is handed the same session each time, not a new one per request; another
// credential (another person, a new password) gets a session of its own, and the session signs
// in as its person.
func TestBasicWithoutCookieKeepsOneSession(t *testing.T) {
	e := newEnv(t)
	session := func(who map[string]string) string {
		t.Helper()
		got := apitest.Do(t, e.app, req("GET", "/about", who, ""))
		for _, c := range (&http.Response{Header: got.Header}).Cookies() {
			if c.Name == sessionCookie && got.Status == 200 {
				return c.Value
			}
		}
		t.Fatalf("no %s cookie: %d %v", sessionCookie, got.Status, got.Header)
		return ""
	}
	first := session(asAlice)
	if again := session(asAlice); again != first {
		t.Errorf("a second Basic request made a new session: %s, then %s", first, again)
	}
	if bobs := session(asBob); bobs == first {
		t.Error("bob was given alice's session")
	}
	apitest.Do(t, e.app, req("POST", "/person/alice?cmd=change_password", asAlice, "alice-new-password"))
	if changed := session(basic("alice", "alice-new-password")); changed == first {
		t.Error("the new password was given the old password's session")
	}
	e.run(t, []scenario{{"the session signs in as alice", req("GET", "/person/alice", map[string]string{"Cookie": sessionCookie + "=" + first}, ""),
		want(200, `<login>alice</login>`)}})
}
