package cloudapi

import (
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/kv"
)

var form = map[string]string{"Content-Type": "application/x-www-form-urlencoded"}

// authorize posts the login form and returns the redirect's URL.
func (e *env) authorize(t *testing.T, params url.Values, user, password string) *url.URL {
	t.Helper()
	params.Set("username", user)
	params.Set("password", password)
	params.Set("decision", "approve")
	r := e.do(t, req{method: "POST", path: "/oauth/authorize", body: params.Encode(), header: form})
	if r.Status != 302 {
		t.Fatalf("authorize: %d %s", r.Status, r.Body)
	}
	u, err := url.Parse(r.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func (e *env) tokenCall(t *testing.T, params url.Values) (int, tokenResponse, string) {
	t.Helper()
	r := e.do(t, req{method: "POST", path: "/oauth/token", body: params.Encode(), header: form})
	var tr tokenResponse
	if r.Status == 200 {
		decode(t, r.Body, &tr)
	}
	return r.Status, tr, r.Body
}

func TestOAuthCodeFlowWithSecret(t *testing.T) {
	e := newEnv(t, 0)
	page := e.do(t, req{path: "/oauth/authorize?client_id=" + cliClient + "&response_type=code&scopes=account:read_only,events:read_only&state=xyz"})
	if page.Status != 200 || !strings.Contains(page.Body, "Pocket CLI") || !strings.Contains(page.Body, "account:read_only") {
		t.Fatalf("login page: %d %s", page.Status, page.Body)
	}
	loc := e.authorize(t, url.Values{"client_id": {cliClient}, "response_type": {"code"}, "scopes": {"account:read_only,events:read_only"}, "state": {"xyz"}}, "carol", "carol-password")
	code := loc.Query().Get("code")
	if loc.Host != "localhost:8000" || loc.Path != "/callback" || code == "" || loc.Query().Get("state") != "xyz" {
		t.Fatalf("redirect %s", loc)
	}
	status, tr, body := e.tokenCall(t, url.Values{"client_id": {cliClient}, "client_secret": {cliSecret}, "code": {code}})
	if status != 200 || len(tr.AccessToken) != 64 || tr.RefreshToken == nil || tr.TokenType != "bearer" || tr.ExpiresIn != 7200 ||
		tr.Scopes != "account:read_only events:read_only" || tr.Scope != tr.Scopes {
		t.Fatalf("exchange: %d %s", status, body)
	}
	e.run(t, []scenario{
		{name: "access token works as carol", req: req{path: "/v4/profile", token: tr.AccessToken}, status: 200, want: []string{`"username":"carol"`},
			header: map[string]string{"X-OAuth-Scopes": "account:read_only events:read_only"}},
		{name: "scopes hold", req: req{method: "POST", path: "/v4/profile/tokens", token: tr.AccessToken, body: `{}`}, status: 403},
		{name: "OAuth tokens are not personal tokens", req: req{path: "/v4/profile/tokens", token: tr.AccessToken}, status: 200, not: []string{"Pocket CLI"}},
	})
	status, _, body = e.tokenCall(t, url.Values{"client_id": {cliClient}, "client_secret": {cliSecret}, "code": {code}})
	if status != 400 || !strings.Contains(body, `"error":"invalid_grant"`) {
		t.Fatalf("reused code: %d %s", status, body)
	}
	e.run(t, []scenario{{name: "a reused code revokes what it issued", req: req{path: "/v4/profile", token: tr.AccessToken}, status: 401}})

	// Refresh rotates: a new pair, and the old refresh token is dead.
	loc = e.authorize(t, url.Values{"client_id": {cliClient}, "scope": {"*"}}, "demo", "demo-password")
	_, first, _ := e.tokenCall(t, url.Values{"client_id": {cliClient}, "client_secret": {cliSecret}, "code": {loc.Query().Get("code")}})
	status, second, body := e.tokenCall(t, url.Values{"grant_type": {"refresh_token"}, "client_id": {cliClient}, "client_secret": {cliSecret}, "refresh_token": {*first.RefreshToken}})
	if status != 200 || second.AccessToken == first.AccessToken || *second.RefreshToken == *first.RefreshToken || second.Scopes != "*" {
		t.Fatalf("refresh: %d %s", status, body)
	}
	for name, params := range map[string]url.Values{
		"old refresh token":   {"grant_type": {"refresh_token"}, "client_id": {cliClient}, "client_secret": {cliSecret}, "refresh_token": {*first.RefreshToken}},
		"refresh, bad secret": {"grant_type": {"refresh_token"}, "client_id": {cliClient}, "client_secret": {"nope"}, "refresh_token": {*second.RefreshToken}},
	} {
		if status, _, body := e.tokenCall(t, params); status < 400 {
			t.Errorf("%s: %d %s", name, status, body)
		}
	}
	// Access tokens die 7200 s after issue, by the clock.
	e.run(t, []scenario{{name: "fresh token", req: req{path: "/v4/profile", token: second.AccessToken}, status: 200}})
	e.clock.Advance(7200 * time.Second)
	e.run(t, []scenario{{name: "token after 7200 s", req: req{path: "/v4/profile", token: second.AccessToken}, status: 401}})

	// The logins were recorded.
	e.db.View(func(tx kv.Tx) error {
		if n := tx.Bucket([]byte("cloud/logins")).KeyN(); n != 2 {
			t.Errorf("%d logins recorded, want 2", n)
		}
		return nil
	})
}

func TestOAuthPKCEAndImplicit(t *testing.T) {
	e := newEnv(t, 0)
	created := e.do(t, req{method: "POST", path: "/v4/account/oauth-clients", token: demoToken,
		body: `{"label":"spa","redirect_uri":"https://spa.example.com/cb","public":true}`})
	var spa clientView
	decode(t, created.Body, &spa)

	verifier := strings.Repeat("v3rifier-", 6)
	sum := sha256.Sum256([]byte(verifier))
	challenge := base64.RawURLEncoding.EncodeToString(sum[:])
	loc := e.authorize(t, url.Values{"client_id": {spa.ID}, "response_type": {"code"}, "code_challenge": {challenge},
		"code_challenge_method": {"S256"}, "redirect_uri": {"https://spa.example.com/cb/deeper"}}, "demo", "demo-password")
	code := loc.Query().Get("code")
	if status, _, body := e.tokenCall(t, url.Values{"grant_type": {"authorization_code"}, "client_id": {spa.ID}, "code": {code}, "code_verifier": {strings.Repeat("x", 50)}}); status != 400 {
		t.Fatalf("wrong verifier: %d %s", status, body)
	}
	status, tr, body := e.tokenCall(t, url.Values{"grant_type": {"authorization_code"}, "client_id": {spa.ID}, "code": {code},
		"code_verifier": {verifier}, "redirect_uri": {"https://spa.example.com/cb/deeper"}})
	if status != 200 || tr.AccessToken == "" {
		t.Fatalf("PKCE exchange: %d %s", status, body)
	}

	loc = e.authorize(t, url.Values{"client_id": {spa.ID}, "response_type": {"token"}, "scopes": {"account:read_write"}, "state": {"s1"}}, "demo", "demo-password")
	frag, _ := url.ParseQuery(loc.Fragment)
	if loc.RawQuery != "" || len(frag.Get("access_token")) != 64 || frag.Get("token_type") != "bearer" || frag.Get("expires_in") != "7200" ||
		frag.Get("state") != "s1" || frag.Get("refresh_token") != "" {
		t.Fatalf("implicit redirect %s", loc)
	}
	e.run(t, []scenario{{name: "implicit token works", req: req{path: "/v4/account/users", token: frag.Get("access_token")}, status: 200}})

	// Deleting the client kills every token issued to it.
	e.run(t, []scenario{
		{name: "delete client", req: req{method: "DELETE", path: "/v4/account/oauth-clients/" + spa.ID, token: demoToken}, status: 200},
		{name: "PKCE token dead", req: req{path: "/v4/profile", token: tr.AccessToken}, status: 401},
		{name: "implicit token dead", req: req{path: "/v4/profile", token: frag.Get("access_token")}, status: 401},
	})
}

func TestOAuthErrors(t *testing.T) {
	e := newEnv(t, 0)
	auth := func(q string) req { return req{path: "/oauth/authorize?" + q} }
	e.run(t, []scenario{
		{name: "unknown client: a page, no redirect", req: auth("client_id=nope"), status: 400, want: []string{"Unknown application"}},
		{name: "redirect that does not match: a page", req: auth("client_id=" + cliClient + "&redirect_uri=https://evil.example.com/cb"), status: 400, want: []string{"Redirect not allowed"}},
		{name: "redirect on another port", req: auth("client_id=" + cliClient + "&redirect_uri=http://localhost:8001/callback"), status: 400},
		{name: "implicit for a private client", req: auth("client_id=" + cliClient + "&response_type=token"), status: 302},
		{name: "unknown scope", req: auth("client_id=" + cliClient + "&scopes=root"), status: 302},
		{name: "bad response_type", req: auth("client_id=" + cliClient + "&response_type=id_token"), status: 302},
		{name: "plain PKCE refused", req: auth("client_id=" + cliClient + "&code_challenge=" + strings.Repeat("a", 43)), status: 302},
	})
	for _, c := range []struct{ q, want string }{
		{"client_id=" + cliClient + "&response_type=token&state=s", "error=unauthorized_client"},
		{"client_id=" + cliClient + "&scopes=root", "error=invalid_scope"},
		{"client_id=" + cliClient + "&response_type=id_token", "error=unsupported_response_type"},
	} {
		if loc := e.do(t, auth(c.q)).Header.Get("Location"); !strings.Contains(loc, c.want) || !strings.HasPrefix(loc, "http://localhost:8000/callback") {
			t.Errorf("%s: Location %q, want %s", c.q, loc, c.want)
		}
	}
	// Wrong password: the page again, 401, nothing issued; deny: access_denied.
	params := url.Values{"client_id": {cliClient}, "username": {"demo"}, "password": {"wrong"}, "decision": {"approve"}}
	r := e.do(t, req{method: "POST", path: "/oauth/authorize", body: params.Encode(), header: form})
	if r.Status != 401 || !strings.Contains(r.Body, "Invalid username or password") {
		t.Fatalf("wrong password: %d %s", r.Status, r.Body)
	}
	params.Set("decision", "deny")
	if loc := e.do(t, req{method: "POST", path: "/oauth/authorize", body: params.Encode(), header: form}).Header.Get("Location"); !strings.Contains(loc, "error=access_denied") {
		t.Fatalf("deny: %q", loc)
	}
	loc := e.authorize(t, url.Values{"client_id": {cliClient}}, "demo", "demo-password")
	code := loc.Query().Get("code")
	for name, c := range map[string]struct {
		params url.Values
		status int
		err    string
	}{
		"wrong secret":       {url.Values{"client_id": {cliClient}, "client_secret": {"nope"}, "code": {code}}, 401, "invalid_client"},
		"no secret":          {url.Values{"client_id": {cliClient}, "code": {code}}, 401, "invalid_client"},
		"unknown client":     {url.Values{"client_id": {"nope"}, "client_secret": {cliSecret}, "code": {code}}, 401, "invalid_client"},
		"unknown code":       {url.Values{"client_id": {cliClient}, "client_secret": {cliSecret}, "code": {"nope"}}, 400, "invalid_grant"},
		"redirect mismatch":  {url.Values{"client_id": {cliClient}, "client_secret": {cliSecret}, "code": {code}, "redirect_uri": {"http://localhost:8000/other"}}, 400, "invalid_grant"},
		"missing code":       {url.Values{"client_id": {cliClient}}, 400, "invalid_request"},
		"unknown grant type": {url.Values{"grant_type": {"password"}, "client_id": {cliClient}}, 400, "unsupported_grant_type"},
	} {
		status, _, body := e.tokenCall(t, c.params)
		if status != c.status || !strings.Contains(body, `"error":"`+c.err+`"`) || !strings.Contains(body, "error_description") {
			t.Errorf("%s: %d %s", name, status, body)
		}
	}
	e.clock.Advance(cloudsvc.CodeLifetime)
	if status, _, body := e.tokenCall(t, url.Values{"client_id": {cliClient}, "client_secret": {cliSecret}, "code": {code}}); status != 400 || !strings.Contains(body, "expired") {
		t.Fatalf("expired code: %d %s", status, body)
	}
}

func TestOAuthRevokeAndExpire(t *testing.T) {
	e := newEnv(t, 0)
	issue := func() tokenResponse {
		loc := e.authorize(t, url.Values{"client_id": {cliClient}}, "demo", "demo-password")
		_, tr, _ := e.tokenCall(t, url.Values{"client_id": {cliClient}, "client_secret": {cliSecret}, "code": {loc.Query().Get("code")}})
		return tr
	}
	a, b := issue(), issue()
	e.run(t, []scenario{
		{name: "expire", req: req{method: "POST", path: "/oauth/token/expire", header: form,
			body: url.Values{"client_id": {cliClient}, "client_secret": {cliSecret}, "token": {a.AccessToken}}.Encode()}, status: 200, exact: `{}`},
		{name: "expired is dead", req: req{path: "/v4/profile", token: a.AccessToken}, status: 401},
		{name: "revoke by refresh token", req: req{method: "POST", path: "/oauth/revoke", header: form,
			body: url.Values{"client_id": {cliClient}, "token": {*b.RefreshToken}}.Encode()}, status: 200},
		{name: "its access token is dead too", req: req{path: "/v4/profile", token: b.AccessToken}, status: 401},
		{name: "revoking an unknown token is fine", req: req{method: "POST", path: "/oauth/revoke", header: form,
			body: url.Values{"client_id": {cliClient}, "token": {"nope"}}.Encode()}, status: 200},
		{name: "revoke, unknown client", req: req{method: "POST", path: "/oauth/revoke", header: form,
			body: url.Values{"client_id": {"nope"}, "token": {"x"}}.Encode()}, status: 401},
	})
}

func TestPasswordSetup(t *testing.T) {
	e := newEnv(t, 0)
	e.do(t, req{method: "POST", path: "/v4/account/users", token: demoToken, body: `{"username":"gina","email":"gina@example.com"}`})
	var setup string
	e.db.View(func(tx kv.Tx) error {
		c := tx.Bucket([]byte("outbox")).Cursor()
		_, v := c.Last()
		i := strings.Index(string(v), "token=")
		setup = strings.TrimRight(string(v)[i+6:i+6+48], "\\")
		return nil
	})
	e.run(t, []scenario{
		{name: "setup page", req: req{path: "/oauth/password-setup?token=" + setup}, status: 200, want: []string{"gina"}},
		{name: "unknown link", req: req{path: "/oauth/password-setup?token=nope"}, status: 404},
		{name: "too short", req: req{method: "POST", path: "/oauth/password-setup", header: form, body: "token=" + setup + "&password=short"}, status: 400, want: []string{"8 and 128"}},
		{name: "set", req: req{method: "POST", path: "/oauth/password-setup", header: form, body: "token=" + setup + "&password=gina-password"}, status: 200, want: []string{"Password set"}},
		{name: "link used up", req: req{method: "POST", path: "/oauth/password-setup", header: form, body: "token=" + setup + "&password=another-one"}, status: 404},
	})
	loc := e.authorize(t, url.Values{"client_id": {cliClient}}, "gina", "gina-password")
	if loc.Query().Get("code") == "" {
		t.Fatal("the new user cannot log in with the password they chose")
	}
}
