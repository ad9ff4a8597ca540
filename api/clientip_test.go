package api

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/valyala/fasthttp/fasthttputil"
)

// Everything that counts a client by IP — the sign-in throttles of the build API and the login
// server, the cloud API's per-IP rate limits, the request journal — counts by kit.ClientIP with
// --trusted-proxies (issue 13: behind a reverse proxy every client shared the proxy's address,
// so one guesser locked everybody out). These tests serve the whole app on an in-memory
// listener whose connections come from chosen peers.

const (
	proxyPeer   = "10.0.0.1"    // inside --trusted-proxies
	strangePeer = "203.0.113.9" // outside it
	clientA     = "198.51.100.1"
	clientB     = "198.51.100.2"
	cliClientID = "5c0c4e7f1d2a3b4c5d6e" // the demo's Pocket CLI OAuth client
)

// peerEnv is an app behind the trusted proxy 10.0.0.0/8, served in memory.
type peerEnv struct {
	*env
	ln *fasthttputil.InmemoryListener
}

func newPeerEnv(t *testing.T, mutate func(*config.Config)) *peerEnv {
	e := newEnv(t, func(c *config.Config) {
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
		if mutate != nil {
			mutate(c)
		}
	})
	return &peerEnv{env: e, ln: apitest.Serve(t, e.app)}
}

// send makes one request from peer, naming xff in X-Forwarded-For when set.
func (e *peerEnv) send(t *testing.T, peer, xff, method, path string, header map[string]string, body string) apitest.Response {
	t.Helper()
	req, err := http.NewRequest(method, "http://appliance.test"+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	cl := apitest.PeerClient(e.ln, peer)
	defer cl.CloseIdleConnections()
	resp, err := cl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return apitest.Response{Status: resp.StatusCode, Header: resp.Header, Body: string(data)}
}

// buildSignIn signs in to the build API with Basic credentials.
func (e *peerEnv) buildSignIn(t *testing.T, peer, xff, login, password string) apitest.Response {
	t.Helper()
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(login+":"+password))
	return e.send(t, peer, xff, "GET", "/about", map[string]string{"Authorization": auth}, "")
}

// cloudSignIn submits the login server's sign-in form.
func (e *peerEnv) cloudSignIn(t *testing.T, peer, xff, username, password string) apitest.Response {
	t.Helper()
	form := url.Values{"client_id": {cliClientID}, "username": {username}, "password": {password}, "decision": {"approve"}}
	return e.send(t, peer, xff, "POST", "/oauth/authorize",
		map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, form.Encode())
}

// ipFreeFailures is how many failed sign-ins one client IP has before it is locked (buildsvc's
// and cloudsvc's policy); each guess names another unknown user, so only the IP's count grows.
const ipFreeFailures = 20

type signIn func(t *testing.T, peer, xff, user, password string) apitest.Response

// signInAPIs are the two password sign-ins with a user whose right password they know.
func signInAPIs(e *peerEnv) []struct {
	name, user, password string
	do                   signIn
	ok                   int
} {
	return []struct {
		name, user, password string
		do                   signIn
		ok                   int
	}{
		{"build Basic", "Admin", "admin-pass", e.buildSignIn, http.StatusOK},
		{"login server", "demo", "demo-password", e.cloudSignIn, http.StatusFound},
	}
}

// TestSignInThrottleBehindProxy: behind a trusted proxy, the failed sign-ins of one client lock
// that client only; another client through the same proxy signs in.
func TestSignInThrottleBehindProxy(t *testing.T) {
	e := newPeerEnv(t, nil)
	for _, api := range signInAPIs(e) {
		t.Run(api.name, func(t *testing.T) {
			for i := range ipFreeFailures {
				if got := api.do(t, proxyPeer, clientA, "nobody-"+strconv.Itoa(i), "guess"); got.Status != http.StatusUnauthorized {
					t.Fatalf("guess %d: %d %s", i+1, got.Status, got.Body)
				}
			}
			if got := api.do(t, proxyPeer, clientA, api.user, api.password); got.Status != http.StatusTooManyRequests || got.Header.Get("Retry-After") != "30" {
				t.Fatalf("the guessing client, right password: %d (Retry-After %q), want 429", got.Status, got.Header.Get("Retry-After"))
			}
			if got := api.do(t, proxyPeer, clientB, api.user, api.password); got.Status != api.ok {
				t.Fatalf("another client through the same proxy: %d %s, want %d", got.Status, got.Body, api.ok)
			}
		})
	}
}

// TestSignInThrottleIgnoresForgedForwardedFor: a peer that is not a trusted proxy cannot name
// itself anew in X-Forwarded-For on every guess to escape its IP's lock.
func TestSignInThrottleIgnoresForgedForwardedFor(t *testing.T) {
	e := newPeerEnv(t, nil)
	for _, api := range signInAPIs(e) {
		t.Run(api.name, func(t *testing.T) {
			for i := range ipFreeFailures {
				forged := "192.0.2." + strconv.Itoa(i+1)
				if got := api.do(t, strangePeer, forged, "nobody-"+strconv.Itoa(i), "guess"); got.Status != http.StatusUnauthorized {
					t.Fatalf("guess %d: %d %s", i+1, got.Status, got.Body)
				}
			}
			if got := api.do(t, strangePeer, "192.0.2.200", api.user, api.password); got.Status != http.StatusTooManyRequests {
				t.Fatalf("a fresh forged X-Forwarded-For: %d %s, want 429", got.Status, got.Body)
			}
		})
	}
}

// TestCloudRateLimitBehindProxy: the cloud API's per-IP limits (public endpoints, /oauth) count
// each client behind a trusted proxy on its own, and a forged X-Forwarded-For from anyone else
// buys nothing.
func TestCloudRateLimitBehindProxy(t *testing.T) {
	e := newPeerEnv(t, func(c *config.Config) { c.CloudRateScale = 0.01 })
	paths := []struct{ method, path string }{{"GET", "/v4/databases/engines"}, {"POST", "/oauth/token"}}
	for _, p := range paths {
		t.Run(p.path, func(t *testing.T) {
			exhaust := func(peer string, xff func(i int) string) {
				t.Helper()
				for i := range 1000 {
					got := e.send(t, peer, xff(i), p.method, p.path, nil, "")
					if got.Status == http.StatusTooManyRequests {
						if i == 0 {
							t.Fatalf("the first request from %s (%s) is refused", peer, xff(i))
						}
						return
					}
				}
				t.Fatalf("%s: never limited", peer)
			}
			exhaust(proxyPeer, func(int) string { return clientA })
			if got := e.send(t, proxyPeer, clientB, p.method, p.path, nil, ""); got.Status == http.StatusTooManyRequests {
				t.Fatalf("another client through the same proxy: 429, want its own budget")
			}
			exhaust(strangePeer, func(i int) string { return "192.0.2." + strconv.Itoa(i%250+1) })
			if got := e.send(t, strangePeer, "192.0.2.251", p.method, p.path, nil, ""); got.Status != http.StatusTooManyRequests {
				t.Fatalf("a fresh forged X-Forwarded-For: %d, want 429", got.Status)
			}
		})
	}
}

// TestJournalRemoteIP: the journal names the client behind a trusted proxy, and the peer itself
// when it is not one, whatever it forges.
func TestJournalRemoteIP(t *testing.T) {
	e := newPeerEnv(t, nil)
	e.send(t, proxyPeer, clientA+", 10.0.0.7", "GET", "/v4/behind-proxy", nil, "")
	e.send(t, strangePeer, clientB, "GET", "/v4/forged", nil, "")
	e.run(t, []call{
		{name: "behind the proxy", path: "/_appliance/requests?path=/v4/behind-proxy", auth: "token", wantStatus: 200,
			wantBody: []string{`"count":1`, `"remote_ip":"` + clientA + `"`}},
		{name: "forged", path: "/_appliance/requests?path=/v4/forged", auth: "token", wantStatus: 200,
			wantBody: []string{`"count":1`, `"remote_ip":"` + strangePeer + `"`}},
	})
}
