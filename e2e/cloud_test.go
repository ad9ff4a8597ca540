package e2e

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/linode/linodego"
)

const e2eToken = "e2e-bootstrap-token-0001"

// cloudClient is linodego pointed at the appliance, as a user would do it.
func cloudClient(p *proc, token string) *linodego.Client {
	c := linodego.NewClient(&http.Client{Timeout: 10 * time.Second})
	c.SetBaseURL(p.url)
	c.SetToken(token)
	c.UseCache(false)
	return &c
}

// TestLinodegoIdentity drives users, grants, OAuth clients, profile and tokens with linodego
// against the built binary.
func TestLinodegoIdentity(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--bootstrap-token", e2eToken)
	p.waitReady(t)
	ctx := context.Background()
	c := cloudClient(p, e2eToken)

	prof, err := c.GetProfile(ctx)
	if err != nil || prof.Username != "demo" || prof.Restricted {
		t.Fatalf("GetProfile: %+v %v", prof, err)
	}
	users, err := c.ListUsers(ctx, nil)
	if err != nil || len(users) != 2 {
		t.Fatalf("ListUsers: %+v %v", users, err)
	}
	filtered, err := c.ListUsers(ctx, linodego.NewListOptions(0, `{"username":"carol"}`))
	if err != nil || len(filtered) != 1 || !filtered[0].Restricted {
		t.Fatalf("ListUsers with a filter: %+v %v", filtered, err)
	}
	u, err := c.CreateUser(ctx, linodego.UserCreateOptions{Username: "hank", Email: "hank@example.com", Restricted: true})
	if err != nil || u.Username != "hank" || !u.Restricted {
		t.Fatalf("CreateUser: %+v %v", u, err)
	}
	_, err = c.CreateUser(ctx, linodego.UserCreateOptions{Username: "hank", Email: "hank@example.com"})
	var apiErr *linodego.Error
	if !errors.As(err, &apiErr) || apiErr.Code != 400 || !strings.Contains(apiErr.Message, "already taken") {
		t.Fatalf("duplicate CreateUser: %v", err)
	}
	rw := linodego.AccessLevelReadWrite
	grants, err := c.UpdateUserGrants(ctx, "hank", linodego.UserGrantsUpdateOptions{Global: linodego.GlobalUserGrants{AccountAccess: &rw, AddDomains: true}})
	if err != nil || grants.Global.AccountAccess == nil || *grants.Global.AccountAccess != rw || !grants.Global.AddDomains {
		t.Fatalf("UpdateUserGrants: %+v %v", grants, err)
	}
	if g, err := c.GetUserGrants(ctx, "hank"); err != nil || !g.Global.AddDomains {
		t.Fatalf("GetUserGrants: %+v %v", g, err)
	}
	restricted := false
	if u, err = c.UpdateUser(ctx, "hank", linodego.UserUpdateOptions{Restricted: &restricted, Email: "hank2@example.com"}); err != nil || u.Restricted || u.Email != "hank2@example.com" {
		t.Fatalf("UpdateUser: %+v %v", u, err)
	}
	if _, err := c.GetUser(ctx, "nobody"); !isStatus(err, 404) {
		t.Fatalf("GetUser missing: %v", err)
	}
	if err := c.DeleteUser(ctx, "hank"); err != nil {
		t.Fatalf("DeleteUser: %v", err)
	}

	oc, err := c.CreateOAuthClient(ctx, linodego.OAuthClientCreateOptions{Label: "e2e app", RedirectURI: "https://e2e.example.com/cb", Public: true})
	if err != nil || len(oc.Secret) != 64 || !oc.Public {
		t.Fatalf("CreateOAuthClient: %+v %v", oc, err)
	}
	if list, err := c.ListOAuthClients(ctx, nil); err != nil || len(list) != 2 || list[1].Secret != "<REDACTED>" && list[0].Secret != "<REDACTED>" {
		t.Fatalf("ListOAuthClients: %+v %v", list, err)
	}
	if oc2, err := c.UpdateOAuthClient(ctx, oc.ID, linodego.OAuthClientUpdateOptions{Label: "renamed", RedirectURI: oc.RedirectURI, Public: true}); err != nil || oc2.Label != "renamed" {
		t.Fatalf("UpdateOAuthClient: %+v %v", oc2, err)
	}
	if reset, err := c.ResetOAuthClientSecret(ctx, oc.ID); err != nil || reset.Secret == oc.Secret || len(reset.Secret) != 64 {
		t.Fatalf("ResetOAuthClientSecret: %+v %v", reset, err)
	}
	if err := c.DeleteOAuthClient(ctx, oc.ID); err != nil {
		t.Fatalf("DeleteOAuthClient: %v", err)
	}

	expiry := time.Now().Add(48 * time.Hour)
	tok, err := c.CreateToken(ctx, linodego.TokenCreateOptions{Label: "e2e", Scopes: "account:read_only", Expiry: &expiry})
	if err != nil || len(tok.Token) != 64 || tok.Expiry == nil || tok.Scopes != "account:read_only" {
		t.Fatalf("CreateToken: %+v %v", tok, err)
	}
	narrow := cloudClient(p, tok.Token)
	if _, err := narrow.ListUsers(ctx, nil); err != nil {
		t.Fatalf("a read-only token lists users: %v", err)
	}
	if _, err := narrow.CreateUser(ctx, linodego.UserCreateOptions{Username: "ivan", Email: "i@example.com"}); !isStatus(err, 403) {
		t.Fatalf("a read-only token creates a user: %v", err)
	}
	if got, err := c.GetToken(ctx, tok.ID); err != nil || got.Token != tok.Token[:16] {
		t.Fatalf("GetToken: %+v %v", got, err)
	}
	if got, err := c.UpdateToken(ctx, tok.ID, linodego.TokenUpdateOptions{Label: "e2e-renamed"}); err != nil || got.Label != "e2e-renamed" {
		t.Fatalf("UpdateToken: %+v %v", got, err)
	}
	if list, err := c.ListTokens(ctx, nil); err != nil || len(list) != 2 {
		t.Fatalf("ListTokens: %+v %v", list, err)
	}
	if err := c.DeleteToken(ctx, tok.ID); err != nil {
		t.Fatalf("DeleteToken: %v", err)
	}
	if _, err := narrow.GetProfile(ctx); !isStatus(err, 401) {
		t.Fatalf("revoked token still works: %v", err)
	}
	// The partner account sees none of it.
	dave := cloudClient(p, "pfdemo-dave-00000000000000000000000000000000000000000000000000000")
	if _, err := dave.GetUser(ctx, "carol"); !isStatus(err, 404) {
		t.Fatalf("dave sees carol: %v", err)
	}
}

func isStatus(err error, code int) bool {
	var apiErr *linodego.Error
	return errors.As(err, &apiErr) && apiErr.Code == code
}

// browser is an HTTP client that keeps cookies and stops at redirects to the app's callback
// (the app is not running; the test reads the Location).
func browser(t *testing.T) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: 10 * time.Second, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if req.URL.Host != via[0].URL.Host {
			return http.ErrUseLastResponse
		}
		return nil
	}}
}

var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)

// signIn opens the authorize URL like a browser, fills the login form from the page's hidden
// fields and posts it; it returns where the login server sends the browser.
func signIn(t *testing.T, b *http.Client, base, query, user, password string) *url.URL {
	t.Helper()
	resp, err := b.Get(base + "/oauth/authorize?" + query)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), `<form method="post" action="/oauth/authorize">`) {
		t.Fatalf("login page: %d %s", resp.StatusCode, page)
	}
	form := url.Values{"username": {user}, "password": {password}, "decision": {"approve"}}
	for _, m := range hiddenInput.FindAllStringSubmatch(string(page), -1) {
		form.Set(m[1], htmlUnescape(m[2]))
	}
	resp, err = b.PostForm(base+"/oauth/authorize", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("login: %d", resp.StatusCode)
	}
	loc, _ := url.Parse(resp.Header.Get("Location"))
	return loc
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&#43;", "+", "&#34;", `"`, "&#39;", "'", "&lt;", "<", "&gt;", ">").Replace(s)
}

type tokenAnswer struct {
	AccessToken  string  `json:"access_token"`
	RefreshToken *string `json:"refresh_token"`
	ExpiresIn    int     `json:"expires_in"`
	Scopes       string  `json:"scopes"`
	Error        string  `json:"error"`
}

func exchange(t *testing.T, base string, form url.Values) (int, tokenAnswer) {
	t.Helper()
	resp, err := http.PostForm(base+"/oauth/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var ta tokenAnswer
	json.NewDecoder(resp.Body).Decode(&ta)
	return resp.StatusCode, ta
}

// TestOAuthFlowsEndToEnd: the code flow with a secret, PKCE, refresh and the implicit flow,
// driven like a browser and an app against the built binary; the tokens then work with linodego.
func TestOAuthFlowsEndToEnd(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--bootstrap-token", e2eToken)
	p.waitReady(t)
	ctx := context.Background()
	const cli, secret = "5c0c4e7f1d2a3b4c5d6e", "pocket-cli-demo-secret"

	loc := signIn(t, browser(t), p.url, "client_id="+cli+"&response_type=code&scope=*&state=abc", "demo", "demo-password")
	if loc.Query().Get("state") != "abc" || loc.Query().Get("code") == "" {
		t.Fatalf("code redirect %s", loc)
	}
	status, tok := exchange(t, p.url, url.Values{"client_id": {cli}, "client_secret": {secret}, "code": {loc.Query().Get("code")}})
	if status != 200 || tok.ExpiresIn != 7200 || tok.RefreshToken == nil || tok.Scopes != "*" {
		t.Fatalf("exchange: %d %+v", status, tok)
	}
	if prof, err := cloudClient(p, tok.AccessToken).GetProfile(ctx); err != nil || prof.Username != "demo" {
		t.Fatalf("OAuth token with linodego: %+v %v", prof, err)
	}
	status, refreshed := exchange(t, p.url, url.Values{"grant_type": {"refresh_token"}, "client_id": {cli}, "client_secret": {secret}, "refresh_token": {*tok.RefreshToken}})
	if status != 200 || refreshed.AccessToken == tok.AccessToken {
		t.Fatalf("refresh: %d %+v", status, refreshed)
	}
	if status, again := exchange(t, p.url, url.Values{"grant_type": {"refresh_token"}, "client_id": {cli}, "client_secret": {secret}, "refresh_token": {*tok.RefreshToken}}); status != 400 || again.Error != "invalid_grant" {
		t.Fatalf("old refresh token: %d %+v", status, again)
	}

	// A public app: PKCE, then the implicit flow.
	app, err := cloudClient(p, e2eToken).CreateOAuthClient(ctx, linodego.OAuthClientCreateOptions{Label: "spa", RedirectURI: "https://spa.example.com/cb", Public: true})
	if err != nil {
		t.Fatal(err)
	}
	verifier := strings.Repeat("e2e-verifier-", 4)
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{"client_id": {app.ID}, "response_type": {"code"}, "scopes": {"account:read_only"},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"}}
	loc = signIn(t, browser(t), p.url, q.Encode(), "carol", "carol-password")
	status, pk := exchange(t, p.url, url.Values{"grant_type": {"authorization_code"}, "client_id": {app.ID}, "code": {loc.Query().Get("code")}, "code_verifier": {verifier}})
	if status != 200 || pk.Scopes != "account:read_only" {
		t.Fatalf("PKCE: %d %+v", status, pk)
	}
	if prof, err := cloudClient(p, pk.AccessToken).GetProfile(ctx); err != nil || prof.Username != "carol" {
		t.Fatalf("PKCE token: %+v %v", prof, err)
	}
	loc = signIn(t, browser(t), p.url, "client_id="+app.ID+"&response_type=token&scopes=account:read_write", "demo", "demo-password")
	frag, _ := url.ParseQuery(loc.Fragment)
	if frag.Get("access_token") == "" || frag.Get("expires_in") != "7200" || frag.Get("refresh_token") != "" {
		t.Fatalf("implicit redirect %s", loc)
	}
	if _, err := cloudClient(p, frag.Get("access_token")).ListUsers(ctx, nil); err != nil {
		t.Fatalf("implicit token: %v", err)
	}
}

// TestBootstrapTokenFollowsTheData: the bootstrap token is the demo owner's token in whatever
// demo world is loaded — gone with a reset (it still opens /_appliance), back with a reseed or a
// restore, replaced when --bootstrap-token changes.
func TestBootstrapTokenFollowsTheData(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "d.db")
	p := start(t, "--data", data, "--bootstrap-token", e2eToken)
	p.waitReady(t)
	profile := func(p *proc, token string) int {
		code, _ := request(t, "GET", p.url+"/v4/profile", token, nil)
		return code
	}
	_, snap := request(t, "GET", p.url+"/_appliance/snapshot", e2eToken, nil)
	steps := []struct {
		name, method, path string
		body               string
		want               int
	}{
		{"reset", "POST", "/_appliance/reset", "", 401},
		{"reseed", "POST", "/_appliance/reseed", "", 200},
		{"reset again", "POST", "/_appliance/reset", "", 401},
		{"restore", "POST", "/_appliance/restore", snap, 200},
	}
	for _, s := range steps {
		if code, body := request(t, s.method, p.url+s.path, e2eToken, strings.NewReader(s.body)); code != 200 {
			t.Fatalf("%s: %d %s", s.name, code, body)
		}
		if got := profile(p, e2eToken); got != s.want {
			t.Fatalf("after %s: /v4/profile %d, want %d", s.name, got, s.want)
		}
	}
	p.stop(t, 15)
	q := start(t, "--data", data, "--bootstrap-token", "a-new-root-token")
	q.waitReady(t)
	if profile(q, e2eToken) != 401 || profile(q, "a-new-root-token") != 200 {
		t.Fatal("changing --bootstrap-token must replace the demo owner's bootstrap token")
	}
}
