package explorerapi

import (
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// The explorer's per-IP rate limit (its client IP is kit.ClientIP, tested there): the
// middleware through app.Test (whose peer is always 0.0.0.0), and over an in-memory listener
// whose connections come from chosen addresses.

var defaultRate = config.Rate{Max: 100, Window: time.Hour}

// TestRateLimit: 100 requests an hour from one address, the 101st is a 429 with Retry-After,
// X-RateLimit-* and the explorer's error; the next window starts afresh; only /api counts.
func TestRateLimit(t *testing.T) {
	e := newEnv(t, envOptions{empty: true, rate: defaultRate})
	reset := strconv.FormatInt(time.Date(2026, 11, 22, 13, 0, 0, 0, time.UTC).Unix(), 10)
	// Every /api request counts, whatever it answers: searches, 400s, unknown paths.
	paths := []string{"/api/products/packages", "/api/products/files?q=x", "/api/products/vcs-search?q=bash", "/api/nope"}
	for i := 1; i <= 100; i++ {
		got := apitest.Do(t, e.app, apitest.Request{Path: paths[i%len(paths)]})
		if got.Status == 429 {
			t.Fatalf("request %d refused: %s", i, got.Body)
		}
		apitest.Expect{Status: got.Status, Header: map[string]string{
			"X-RateLimit-Limit": "100", "X-RateLimit-Remaining": strconv.Itoa(100 - i), "X-RateLimit-Reset": reset,
		}}.Check(t, got)
		if t.Failed() {
			t.Fatalf("request %d", i)
		}
	}
	e.run(t, []scenario{
		{name: "the 101st request is refused",
			Request: apitest.Request{Path: "/api/products/packages?q=bash"},
			Expect: apitest.Expect{Status: 429,
				Exact: `{"error":"rate limit exceeded: 100 requests per hour from one address; retry in 1800 seconds"}`,
				Header: map[string]string{"Retry-After": "1800", "X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "0",
					"X-RateLimit-Reset": reset}}},
		{name: "every /api path is refused", Request: apitest.Request{Path: "/api/products/files?q=/usr/bin/bash"},
			Expect: apitest.Expect{Status: 429, Header: map[string]string{"Retry-After": "1800"}}},
		{name: "a forged X-Forwarded-For buys nothing (no trusted proxies)",
			Request: apitest.Request{Path: "/api/products/packages", Header: map[string]string{"X-Forwarded-For": "198.51.100.77"}},
			Expect:  apitest.Expect{Status: 429}},
		{name: "the operator's routes are not limited", Request: apitest.Request{Path: "/_appliance/explorer/products", Bearer: testToken},
			Expect: apitest.Expect{Status: 200, Header: map[string]string{"X-RateLimit-Limit": "", "Retry-After": ""}}},
		{name: "health is not limited", Request: apitest.Request{Path: "/_appliance/livez"},
			Expect: apitest.Expect{Status: 200, Header: map[string]string{"X-RateLimit-Limit": ""}}},
	})

	e.clk.Advance(29*time.Minute + 59*time.Second)
	got := apitest.Do(t, e.app, apitest.Request{Path: "/api/products/packages"})
	apitest.Expect{Status: 429, Header: map[string]string{"Retry-After": "1"}}.Check(t, got)

	e.clk.Advance(time.Second) // 13:00: a new window
	next := strconv.FormatInt(time.Date(2026, 11, 22, 14, 0, 0, 0, time.UTC).Unix(), 10)
	got = apitest.Do(t, e.app, apitest.Request{Path: "/api/products/packages"})
	apitest.Expect{Status: 200, Header: map[string]string{
		"X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "99", "X-RateLimit-Reset": next, "Retry-After": ""}}.Check(t, got)
}

// TestRateLimitSettings: other rates, and 0 turning the limit off.
func TestRateLimitSettings(t *testing.T) {
	cases := []struct {
		name    string
		rate    config.Rate
		allowed int    // requests answered before the first 429 (-1: never refused in 300)
		message string // the 429's error
	}{
		{"off: rate 0", config.Rate{}, -1, ""},
		{"a window of 0 is off too", config.Rate{Max: 5}, -1, ""},
		{"3 per 10 minutes", config.Rate{Max: 3, Window: 10 * time.Minute},
			3, "rate limit exceeded: 3 requests per 10m0s from one address; retry in 600 seconds"},
		{"1 per minute", config.Rate{Max: 1, Window: time.Minute},
			1, "rate limit exceeded: 1 requests per minute from one address; retry in 60 seconds"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, envOptions{empty: true, rate: c.rate})
			for i := 1; i <= 300; i++ {
				got := apitest.Do(t, e.app, apitest.Request{Path: "/api/products/packages"})
				if c.allowed < 0 {
					if got.Status != 200 || got.Header.Get("X-RateLimit-Limit") != "" {
						t.Fatalf("request %d: %d, X-RateLimit-Limit %q: want no limit", i, got.Status, got.Header.Get("X-RateLimit-Limit"))
					}
					continue
				}
				if i <= c.allowed {
					if got.Status != 200 {
						t.Fatalf("request %d: %d %s", i, got.Status, got.Body)
					}
					continue
				}
				apitest.Expect{Status: 429, Exact: `{"error":"` + c.message + `"}`,
					Header: map[string]string{"X-RateLimit-Limit": strconv.Itoa(c.rate.Max)}}.Check(t, got)
				checkJSON(t, got)
				return
			}
		})
	}
}

// TestRateLimitPeers: the middleware counts per peer, and behind a trusted proxy per client.
func TestRateLimitPeers(t *testing.T) {
	type send struct {
		peer, xff string
		n         int // how many
		want      int // the status of the last
		remaining string
	}
	cases := []struct {
		name    string
		trusted []string
		steps   []send
	}{
		{"each peer has its own budget", nil, []send{
			{"203.0.113.1", "", 3, 200, "0"},
			{"203.0.113.1", "", 1, 429, "0"},
			{"203.0.113.2", "", 1, 200, "2"},
		}},
		{"forged X-Forwarded-For from an untrusted peer share one budget", nil, []send{
			{"203.0.113.1", "198.51.100.1", 1, 200, "2"},
			{"203.0.113.1", "198.51.100.2", 1, 200, "1"},
			{"203.0.113.1", "198.51.100.3", 1, 200, "0"},
			{"203.0.113.1", "198.51.100.4", 1, 429, "0"},
		}},
		{"an untrusted peer naming a trusted proxy shares its own budget", []string{"10.0.0.0/8"}, []send{
			{"203.0.113.1", "198.51.100.1, 10.0.0.1", 3, 200, "0"},
			{"203.0.113.1", "198.51.100.2, 10.0.0.1", 1, 429, "0"},
		}},
		{"behind a trusted proxy each client counts", []string{"10.0.0.0/8"}, []send{
			{"10.0.0.1", "198.51.100.1", 3, 200, "0"},
			{"10.0.0.1", "198.51.100.1", 1, 429, "0"},
			{"10.0.0.1", "198.51.100.2", 1, 200, "2"},
			{"10.0.0.2", "198.51.100.2", 1, 200, "1"}, // the same client through another proxy
		}},
		{"client, proxy1 through a trusted proxy: the client counts", []string{"10.0.0.0/8", "192.168.1.1/32"}, []send{
			{"10.0.0.1", "198.51.100.1, 192.168.1.1", 2, 200, "1"},
			{"10.0.0.1", "198.51.100.1", 1, 200, "0"},
			{"10.0.0.1", "198.51.100.1, 192.168.1.1", 1, 429, "0"},
		}},
		{"garbled X-Forwarded-For through a trusted proxy: the proxy counts", []string{"10.0.0.0/8"}, []send{
			{"10.0.0.1", "garbage", 2, 200, "1"},
			{"10.0.0.1", "", 1, 200, "0"},
			{"10.0.0.1", "198.51.100.1, nonsense", 1, 429, "0"},
			{"10.0.0.1", "198.51.100.1", 1, 200, "2"},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, envOptions{empty: true, rate: config.Rate{Max: 3, Window: time.Hour}, trusted: apitest.Prefixes(t, c.trusted...)})
			ln := apitest.Serve(t, e.app)
			clients := map[string]*http.Client{}
			for i, s := range c.steps {
				cl := clients[s.peer]
				if cl == nil {
					cl = apitest.PeerClient(ln, s.peer)
					clients[s.peer] = cl
					defer cl.CloseIdleConnections()
				}
				var resp *http.Response
				for k := 0; k < s.n; k++ {
					req, _ := http.NewRequest("GET", "http://explorer.test/api/products/packages", nil)
					if s.xff != "" {
						req.Header.Set("X-Forwarded-For", s.xff)
					}
					var err error
					if resp, err = cl.Do(req); err != nil {
						t.Fatal(err)
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				if resp.StatusCode != s.want || resp.Header.Get("X-RateLimit-Remaining") != s.remaining {
					t.Fatalf("step %d (%s via %s): %d, remaining %q; want %d, remaining %s", i, s.xff, s.peer,
						resp.StatusCode, resp.Header.Get("X-RateLimit-Remaining"), s.want, s.remaining)
				}
			}
		})
	}
}
