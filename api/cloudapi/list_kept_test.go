package cloudapi

import (
	"strings"
	"testing"
)

// TestUserPagesKept: a kept users page is the page renderList writes, and a write is seen on
// the next request — a new user, a changed one, another page size, another account.
func TestUserPagesKept(t *testing.T) {
	e := newEnv(t, 0)
	page := func(query, token string) string {
		t.Helper()
		r := e.do(t, req{method: "GET", path: "/v4/account/users" + query, token: token})
		if r.Status != 200 || r.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("GET users%s: %d %s %s", query, r.Status, r.Header.Get("Content-Type"), r.Body)
		}
		return r.Body
	}
	first := page("", demoToken)
	if again := page("", demoToken); again != first {
		t.Fatalf("the kept page differs:\n%s\n%s", first, again)
	}
	if r := e.do(t, req{method: "POST", path: "/v4/account/users", token: demoToken,
		body: `{"username":"kept1","email":"kept1@example.com"}`}); r.Status != 200 {
		t.Fatalf("adding a user: %d %s", r.Status, r.Body)
	}
	if got := page("", demoToken); !strings.Contains(got, `"username":"kept1"`) || got == first {
		t.Fatalf("the new user is missing from the page: %s", got)
	}
	if got := page("?page_size=25", demoToken); !strings.Contains(got, `"username":"kept1"`) {
		t.Fatalf("page_size=25: %s", got)
	}
	if got := page("", daveToken); strings.Contains(got, "kept1") {
		t.Fatalf("another account's page shows demo's user: %s", got)
	}
	filtered := e.do(t, req{method: "GET", path: "/v4/account/users", token: demoToken,
		header: map[string]string{"X-Filter": `{"username":"kept1"}`}})
	if !strings.Contains(filtered.Body, `"results":1`) {
		t.Fatalf("a filtered page: %s", filtered.Body)
	}
}
