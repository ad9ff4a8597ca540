package cloudapi

import (
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
)

// TestRedirectDotSegments (issue 13): a redirect_uri that climbs out of the registered path with
// dot segments, however encoded, is refused with the page (no redirect, no code), and a client
// cannot register one either.
func TestRedirectDotSegments(t *testing.T) {
	e := newEnv(t, 0)
	var list []scenario
	for _, redirect := range []string{
		"http://localhost:8000/callback/../../evil",
		"http://localhost:8000/callback/%2e%2e/%2e%2e/evil",
		"http://localhost:8000/callback/%2E%2E/evil",
		"http://localhost:8000/callback/..%2f..%2fevil",
		"http://localhost:8000/callback/%2e%2e%2f%2e%2e%2fevil",
		"http://localhost:8000/callback/%252e%252e/evil",
		`http://localhost:8000/callback/..\..\evil`,
		"http://localhost:8000/callback/./x",
		"http://localhost:8000/callback/..",
		"http://user@localhost:8000/callback/x",
	} {
		q := url.Values{"client_id": {cliClient}, "redirect_uri": {redirect}}.Encode()
		list = append(list, scenario{name: redirect, req: req{path: "/oauth/authorize?" + q}, status: 400,
			want: []string{"Redirect not allowed"}, header: map[string]string{"Location": ""}})
	}
	for _, redirect := range []string{"http://localhost:8000/callback/deeper", "http://LOCALHOST:8000/callback/a/b?x=1"} {
		q := url.Values{"client_id": {cliClient}, "redirect_uri": {redirect}}.Encode()
		list = append(list, scenario{name: "allowed " + redirect, req: req{path: "/oauth/authorize?" + q}, status: 200})
	}
	list = append(list, scenario{name: "register a dot segment", req: req{method: "POST", path: "/v4/account/oauth-clients", token: demoToken,
		body: `{"label":"x","redirect_uri":"https://x.example.com/cb/.."}`}, status: 400, want: []string{`"field":"redirect_uri"`}})
	e.run(t, list)
}

// TestTokenRedirectMustMatch (issue 13, RFC 6749 §4.1.3): a code asked for with a redirect_uri
// is exchanged only with the same redirect_uri; one asked for without may name the registered
// URI or none.
func TestTokenRedirectMustMatch(t *testing.T) {
	e := newEnv(t, 0)
	const deeper = "http://localhost:8000/callback/deeper"
	code := e.authorize(t, url.Values{"client_id": {cliClient}, "redirect_uri": {deeper}}, "demo", "demo-password").Query().Get("code")
	for name, redirect := range map[string][]string{"none": nil, "the registered one": {"http://localhost:8000/callback"}, "another": {"http://localhost:8000/callback/other"}} {
		status, _, body := e.tokenCall(t, url.Values{"client_id": {cliClient}, "client_secret": {cliSecret}, "code": {code}, "redirect_uri": redirect})
		if status != 400 || !strings.Contains(body, `"error":"invalid_grant"`) {
			t.Errorf("redirect_uri %s: %d %s", name, status, body)
		}
	}
	if status, _, body := e.tokenCall(t, url.Values{"client_id": {cliClient}, "client_secret": {cliSecret}, "code": {code}, "redirect_uri": {deeper}}); status != 200 {
		t.Fatalf("the same redirect_uri: %d %s", status, body)
	}
	code = e.authorize(t, url.Values{"client_id": {cliClient}}, "demo", "demo-password").Query().Get("code")
	if status, _, body := e.tokenCall(t, url.Values{"client_id": {cliClient}, "client_secret": {cliSecret}, "code": {code}, "redirect_uri": {"http://localhost:8000/callback"}}); status != 200 {
		t.Fatalf("none asked, the registered one named: %d %s", status, body)
	}
	// The login form carries redirect_uri through only when the request named it.
	page := e.do(t, req{path: "/oauth/authorize?client_id=" + cliClient})
	if page.Status != 200 || strings.Contains(page.Body, `name="redirect_uri"`) {
		t.Fatalf("login page without redirect_uri: %d %s", page.Status, page.Body)
	}
}

// TestConfidentialClientPKCENeedsSecret (issue 13): PKCE does not spare a confidential client
// its secret; a public client exchanges with the verifier alone.
func TestConfidentialClientPKCENeedsSecret(t *testing.T) {
	e := newEnv(t, 0)
	verifier := strings.Repeat("c0nfidential-", 4)
	sum := sha256.Sum256([]byte(verifier))
	challenge := base64.RawURLEncoding.EncodeToString(sum[:])
	code := e.authorize(t, url.Values{"client_id": {cliClient}, "code_challenge": {challenge}, "code_challenge_method": {"S256"}},
		"demo", "demo-password").Query().Get("code")
	for name, secret := range map[string][]string{"no secret": nil, "wrong secret": {"nope"}} {
		status, _, body := e.tokenCall(t, url.Values{"client_id": {cliClient}, "code": {code}, "code_verifier": {verifier}, "client_secret": secret})
		if status != 401 || !strings.Contains(body, `"error":"invalid_client"`) {
			t.Errorf("%s: %d %s", name, status, body)
		}
	}
	if status, tr, body := e.tokenCall(t, url.Values{"client_id": {cliClient}, "code": {code}, "code_verifier": {verifier}, "client_secret": {cliSecret}}); status != 200 || tr.AccessToken == "" {
		t.Fatalf("verifier and secret: %d %s", status, body)
	}
}
