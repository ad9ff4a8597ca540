package cloudapi

import (
	"fmt"
	"testing"
	"time"
)

func TestProfileAndTokens(t *testing.T) {
	e := newEnv(t, 0)
	e.run(t, []scenario{
		{name: "profile", req: req{path: "/v4/profile", token: demoToken}, status: 200,
			want: []string{`"username":"demo"`, `"email":"demo@demo.pocketforge.test"`, `"restricted":false`, `"uid":1`}},
		{name: "restricted profile", req: req{path: "/v4/profile", token: carolToken}, status: 200, want: []string{`"username":"carol"`, `"restricted":true`}},
		{name: "list: the bootstrap token", req: req{path: "/v4/profile/tokens", token: demoToken}, status: 200,
			want: []string{`"label":"pocketforge bootstrap token"`, `"scopes":"*"`, `"results":1`}},
	})
	created := e.do(t, req{method: "POST", path: "/v4/profile/tokens", token: demoToken,
		body: `{"label":"ci","scopes":"account:read_only,events:read_write","expiry":"2026-12-01T00:00:00"}`})
	var tok tokenView
	decode(t, created.Body, &tok)
	if created.Status != 200 || len(tok.Token) != 64 || tok.Scopes != "account:read_only events:read_write" || *tok.Expiry != "2026-12-01T00:00:00" {
		t.Fatalf("create: %d %s", created.Status, created.Body)
	}
	id := fmt.Sprint(tok.ID)
	e.run(t, []scenario{
		{name: "view shows 16 characters", req: req{path: "/v4/profile/tokens/" + id, token: demoToken}, status: 200,
			want: []string{`"token":"` + tok.Token[:16] + `"`}, not: []string{tok.Token}},
		{name: "new token reads", req: req{path: "/v4/profile/tokens", token: tok.Token}, status: 200,
			header: map[string]string{"X-OAuth-Scopes": "account:read_only events:read_write"}},
		{name: "new token cannot write the account area", req: req{method: "POST", path: "/v4/profile/tokens", token: tok.Token, body: `{"label":"x"}`},
			status: 403, exact: `{"errors":[{"reason":"Unauthorized"}]}`},
		{name: "rename", req: req{method: "PUT", path: "/v4/profile/tokens/" + id, token: demoToken, body: `{"label":"ci-renamed"}`}, status: 200, want: []string{`"label":"ci-renamed"`}},
		{name: "rename too long", req: req{method: "PUT", path: "/v4/profile/tokens/" + id, token: demoToken, body: `{"label":"` + string(make([]byte, 0)) + `"}`}, status: 400, want: []string{`"field":"label"`}},
		{name: "invalid scope", req: req{method: "POST", path: "/v4/profile/tokens", token: demoToken, body: `{"scopes":"account:admin"}`}, status: 400, want: []string{`"field":"scopes"`}},
		{name: "maintenance has no read_write", req: req{method: "POST", path: "/v4/profile/tokens", token: demoToken, body: `{"scopes":"maintenance:read_write"}`}, status: 400},
		{name: "expiry in the past", req: req{method: "POST", path: "/v4/profile/tokens", token: demoToken, body: `{"expiry":"2020-01-01T00:00:00"}`}, status: 400, want: []string{`"field":"expiry"`}},
		{name: "expiry not a time", req: req{method: "POST", path: "/v4/profile/tokens", token: demoToken, body: `{"expiry":"soon"}`}, status: 400, want: []string{`"field":"expiry"`}},
		{name: "someone else's token is not found", req: req{path: "/v4/profile/tokens/" + id, token: carolToken}, status: 404},
		{name: "bad id", req: req{path: "/v4/profile/tokens/abc", token: demoToken}, status: 404},
		{name: "revoke", req: req{method: "DELETE", path: "/v4/profile/tokens/" + id, token: demoToken}, status: 200, exact: `{}`},
		{name: "revoked token is dead", req: req{path: "/v4/profile", token: tok.Token}, status: 401, header: map[string]string{"X-OAuth-Scopes": "unknown"}},
	})
	// A narrow token cannot mint a wide one; an expired token is dead.
	narrow := e.token(t, "demo", "account:read_write", nil)
	soon := start.Add(time.Hour)
	expiring := e.token(t, "demo", "*", &soon)
	e.run(t, []scenario{
		{name: "narrow cannot mint *", req: req{method: "POST", path: "/v4/profile/tokens", token: narrow, body: `{"label":"wide"}`}, status: 400, want: []string{"scopes the token creating it lacks"}},
		{name: "narrow can mint narrower", req: req{method: "POST", path: "/v4/profile/tokens", token: narrow, body: `{"label":"n","scopes":"account:read_only"}`}, status: 200},
		{name: "expiring token works before its time", req: req{path: "/v4/profile", token: expiring}, status: 200},
	})
	e.clock.Advance(2 * time.Hour)
	e.run(t, []scenario{{name: "expired token is dead", req: req{path: "/v4/profile", token: expiring}, status: 401}})
}
