package api

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/config"
)

// The explorer's read-only build proxy (/obs by default) as the appliance mounts it: the build
// API in process behind it, the demo explorer person as its identity.

func basicOf(login, password string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(login+":"+password))
}

// asExplorer is the proxy's own identity, for the direct calls its answers are compared with.
var asExplorer = basicOf("explorer", config.DemoBackendPassword)

// secretMeta is a project hidden from non-members: Admin and alice only.
const secretMeta = `<project name="home:alice:secret"><title>S</title><description/>` +
	`<person userid="alice" role="maintainer"/><access><disable/></access></project>`

// proxyEnv is an appliance without a rate limit (the tables send dozens of requests) and with a
// hidden project holding a package and a file.
func proxyEnv(t testing.TB, mutate func(*config.Config)) *env {
	t.Helper()
	e := newEnv(t, func(c *config.Config) {
		c.ExplorerRate = config.Rate{}
		if mutate != nil {
			mutate(c)
		}
	})
	asAlice := basicOf("alice", "alice-password")
	for _, c := range []call{
		{method: "PUT", path: "/source/home:alice:secret/_meta", body: secretMeta},
		{method: "PUT", path: "/source/home:alice:secret/p/_meta", body: `<package name="p"><title/><description/></package>`},
		{method: "PUT", path: "/source/home:alice:secret/p/f", body: "hush\n"},
	} {
		c.auth = asAlice
		if got, _ := e.do(t, c); got.Status != 200 {
			t.Fatalf("%s %s: %d %s", c.method, c.path, got.Status, got.Body)
		}
	}
	return e
}

// TestProxyReadsAreTheBuildAPIs: every read through the proxy answers exactly what the build
// API answers the explorer person directly — status, body, Content-Type and
// X-Opensuse-Errorcode — errors included; the caller's own credentials change nothing.
func TestProxyReadsAreTheBuildAPIs(t *testing.T) {
	e := proxyEnv(t, nil)
	spec := "Name: pocket-cli\nVersion: 1\nRelease: 0\nSummary: s\nLicense: MIT\nBuildRequires: pocket-base\n%description\nd\n"
	cases := []struct {
		name, method, path, body string
	}{
		{"project list", "GET", "/source", ""},
		{"a project's packages", "GET", "/source/Pocket:1.0", ""},
		{"a project meta", "GET", "/source/Pocket:1.0/_meta", ""},
		{"an encoded project name", "GET", "/source/Pocket%3A1.0/_meta", ""},
		{"a link's file list", "GET", "/source/Pocket:1.0/pocket-cli", ""},
		{"expanded", "GET", "/source/Pocket:1.0/pocket-cli?expand=1", ""},
		{"a file", "GET", "/source/devel:tools/pocket-cli/pocket-cli.spec", ""},
		{"a package's history", "GET", "/source/devel:tools/pocket-cli/_history", ""},
		{"results", "GET", "/build/Pocket:1.0/_result", ""},
		{"results, osc's query", "GET", "/build/Pocket:1.0/_result?package=pocket-cli&multibuild=1&locallink=1", ""},
		{"a build log", "GET", "/build/Pocket:1.0/standard/x86_64/pocket-cli/_log?nostream=1", ""},
		{"binaries", "GET", "/build/Pocket:1.0/standard/x86_64/pocket-cli", ""},
		{"HEAD", "HEAD", "/source/Pocket:1.0/_meta", ""},
		{"unknown project", "GET", "/source/nope/_meta", ""},
		{"unknown package", "GET", "/source/Pocket:1.0/nope", ""},
		{"unknown file", "GET", "/source/Pocket:1.0/pocket-cli/nope", ""},
		{"rdiff (POST cmd=diff)", "POST", "/source/Pocket:1.0/pocket-cli?cmd=diff&unified=1&expand=1&filelimit=0&tarlimit=0", ""},
		{"rdiff against another project", "POST", "/source/Pocket:1.0/pocket-cli?cmd=diff&oproject=devel:tools&opackage=pocket-cli", ""},
		{"showlinked", "POST", "/source/devel:tools/pocket-cli?cmd=showlinked", ""},
		{"buildinfo with a spec file", "POST", "/build/Pocket:1.0/standard/x86_64/pocket-cli/_buildinfo", spec},
		{"builddepinfo", "GET", "/build/Pocket:1.0/standard/x86_64/_builddepinfo", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			direct, _ := e.do(t, call{method: tc.method, path: tc.path, body: tc.body, auth: asExplorer, header: map[string]string{"Content-Type": "text/plain"}})
			// the caller's own (Admin's) credentials and session are dropped, not used
			proxied, _ := e.do(t, call{method: tc.method, path: "/obs" + tc.path, body: tc.body, auth: adminBasic,
				header: map[string]string{"Content-Type": "text/plain", "Cookie": "openSUSE_session=forged"}})
			if proxied.Status != direct.Status || proxied.Body != direct.Body {
				t.Fatalf("proxy %d %q\ndirect %d %q", proxied.Status, proxied.Body, direct.Status, direct.Body)
			}
			for _, h := range []string{"Content-Type", "X-Opensuse-Errorcode", "X-Opensuse-Apiversion"} {
				if proxied.Header.Get(h) != direct.Header.Get(h) {
					t.Errorf("%s: proxy %q, direct %q", h, proxied.Header.Get(h), direct.Header.Get(h))
				}
			}
			if proxied.Header.Get("Set-Cookie") != "" || proxied.Header.Get("WWW-Authenticate") != "" {
				t.Errorf("the backend's session or challenge reached the caller: %v", proxied.Header)
			}
		})
	}
}

// TestProxyRefusals: writes 405 with Allow (whoever asks), requests always empty, restricted
// projects the build service's 404 even for their members, traversal 400, other paths 404 —
// and nothing a refused request asked for happened.
func TestProxyRefusals(t *testing.T) {
	e := proxyEnv(t, nil)
	readOnly := func(allow string) map[string]string {
		return map[string]string{"Allow": allow, "X-Opensuse-Errorcode": "method_not_allowed", "Content-Type": "application/xml; charset=utf-8"}
	}
	hidden := []string{`<status code="unknown_project">`, "home:alice:secret"}
	empty := `<collection matches="0"/>` + "\n"
	e.run(t, []call{
		{name: "PUT a file", method: "PUT", path: "/obs/source/Pocket:1.0/pocket-cli/x", body: "x", auth: adminBasic, wantStatus: 405,
			wantHeader: readOnly("GET, HEAD"), wantBody: []string{`<status code="method_not_allowed">`, "The build proxy is read-only: PUT /obs/source/Pocket:1.0/pocket-cli/x"}},
		{name: "PUT a meta", method: "PUT", path: "/obs/source/home:explorer/_meta", body: "<project/>", wantStatus: 405, wantHeader: readOnly("GET, HEAD")},
		{name: "DELETE a project", method: "DELETE", path: "/obs/source/Pocket:1.0", auth: adminBasic, wantStatus: 405, wantHeader: readOnly("GET, HEAD, POST")},
		{name: "DELETE a package (osc rdelete)", method: "DELETE", path: "/obs/source/Pocket:1.0/pocket-cli", wantStatus: 405, wantHeader: readOnly("GET, HEAD, POST")},
		{name: "PATCH", method: "PATCH", path: "/obs/build/Pocket:1.0/_result", wantStatus: 405, wantHeader: readOnly("GET, HEAD, POST")},
		{name: "OPTIONS", method: "OPTIONS", path: "/obs/source", wantStatus: 405, wantHeader: readOnly("GET, HEAD")},
		{name: "POST commit (osc ci)", method: "POST", path: "/obs/source/Pocket:1.0/pocket-cli?cmd=commitfilelist", body: "<directory/>", wantStatus: 405, wantHeader: readOnly("GET, HEAD, POST")},
		{name: "POST branch", method: "POST", path: "/obs/source/Pocket:1.0/pocket-cli?cmd=branch", wantStatus: 405},
		{name: "POST a read cmd smuggling a write", method: "POST", path: "/obs/source/Pocket:1.0/pocket-cli?cmd=diff&cmd=commit", wantStatus: 405},
		{name: "POST without cmd", method: "POST", path: "/obs/source/Pocket:1.0/pocket-cli", wantStatus: 405},
		{name: "POST rebuild", method: "POST", path: "/obs/build/Pocket:1.0?cmd=rebuild", wantStatus: 405, wantHeader: readOnly("GET, HEAD")},
		{name: "POST _result with a cmd", method: "POST", path: "/obs/build/Pocket:1.0/_result?cmd=rebuild", wantStatus: 405},
		{name: "POST a request", method: "POST", path: "/obs/request?cmd=create", body: "<request/>", wantStatus: 405, wantHeader: readOnly("GET, HEAD")},
		{name: "nothing was deleted", path: "/source/Pocket:1.0/pocket-cli", auth: asExplorer, wantStatus: 200, wantBody: []string{`<directory name="pocket-cli"`}},
		{name: "nothing was written", path: "/source/Pocket:1.0/pocket-cli/x", auth: asExplorer, wantStatus: 404},

		{name: "request list", path: "/obs/request?view=collection&states=new,review", wantStatus: 200, wantExact: empty,
			wantHeader: map[string]string{"Content-Type": "application/xml; charset=utf-8"}},
		{name: "a request", path: "/obs/request/1", wantStatus: 200, wantExact: empty},
		{name: "osc's request search after co", path: "/obs/search/request?match=state/@name='new'", wantStatus: 200, wantExact: empty},

		{name: "restricted: meta", path: "/obs/source/home:alice:secret/_meta", wantStatus: 404, wantBody: hidden,
			wantHeader: map[string]string{"X-Opensuse-Errorcode": "unknown_project"}},
		{name: "restricted: even with a member's credentials", path: "/obs/source/home:alice:secret/p/f", auth: basicOf("alice", "alice-password"), wantStatus: 404, wantBody: hidden},
		{name: "restricted: results", path: "/obs/build/home:alice:secret/_result", wantStatus: 404, wantBody: hidden},
		{name: "restricted: a diff against it", method: "POST", path: "/obs/source/Pocket:1.0/pocket-cli?cmd=diff&oproject=home:alice:secret&opackage=p", wantStatus: 404, wantBody: hidden},
		{name: "restricted: not listed", path: "/obs/source", auth: adminBasic, wantStatus: 200, notInBody: []string{"home:alice:secret"}},
		{name: "restricted: a write is still a 405", method: "DELETE", path: "/obs/source/home:alice:secret", wantStatus: 405},

		{name: "encoded dot segments", path: "/obs/source/%2e%2e/%2e%2e/_appliance/snapshot", wantStatus: 400, wantBody: []string{`<status code="bad_request">`, "refuses paths"}},
		{name: "mixed", path: "/obs/source/.%2E/x", wantStatus: 400},
		{name: "encoded slash", path: "/obs/source/..%2F..%2F_appliance", wantStatus: 400},
		{name: "encoded twice", path: "/obs/source/%252e%252e/x", wantStatus: 400},
		{name: "a backslash", path: "/obs/source/a%5C..%5Cb", wantStatus: 400},
		{name: "plain dots", path: "/obs/source/../../_appliance/snapshot", wantStatus: 400, wantBody: []string{"refuses paths"}},
		{name: "plain dots at the end", path: "/obs/build/..", wantStatus: 400},
		{name: "the prefix alone", path: "/obs", wantStatus: 404, wantBody: []string{`<status code="not_found">`, "serves /obs/source, /obs/build and /obs/request"}},
		{name: "another build API root", path: "/obs/person/alice", wantStatus: 404, wantBody: []string{`<status code="not_found">`}},
		{name: "a search", path: "/obs/search/package?match=@name='x'", wantStatus: 404},
		{name: "a lookalike prefix", path: "/obsx/source", wantStatus: 404, wantBody: []string{`<!doctype html>`, `Page not found`}},
	})
}

// TestProxyWriteBodyIsNotRead: a write with a 100 MB body is answered 405 from its head — the
// client has sent 8 KiB — and the connection closes with the rest unread.
func TestProxyWriteBodyIsNotRead(t *testing.T) {
	e := proxyEnv(t, nil)
	addr := serveReal(t, e)
	prefix := strings.Repeat("x", 8<<10)
	for _, head := range []string{
		"PUT /obs/source/Pocket:1.0/pocket-cli/big.tar HTTP/1.1\r\nHost: x\r\n",
		"POST /obs/source/Pocket:1.0/pocket-cli?cmd=commitfilelist HTTP/1.1\r\nHost: x\r\nAuthorization: " + adminBasic + "\r\n",
	} {
		raw := head + "Content-Length: 100000000\r\n\r\n" + prefix
		got, err := sendRaw(t, addr, []byte(raw), 15*time.Second)
		if err != nil {
			t.Fatalf("no answer before the body was sent: %v", err)
		}
		if got.status != 405 || got.header.Get("Allow") == "" || !strings.Contains(got.body, "read-only") {
			t.Fatalf("got %d %v %s", got.status, got.header, got.body)
		}
		if !got.close {
			t.Errorf("the connection stays open with 100 MB unread")
		}
	}
}

// TestProxyRateLimit: the proxy is counted with /api by the explorer's per-IP limit; its 429 is
// a <status> osc can read.
func TestProxyRateLimit(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.ExplorerRate = config.Rate{Max: 3, Window: time.Hour} })
	e.run(t, []call{
		{name: "1", path: "/obs/source", wantStatus: 200, wantHeader: map[string]string{"X-Ratelimit-Remaining": "2"}},
		{name: "2 (an /api call counts too)", path: "/api/products/packages?q=bash", wantStatus: 200},
		{name: "3", path: "/obs/request", wantStatus: 200},
		{name: "4", path: "/obs/source", wantStatus: 429, wantBody: []string{`<status code="too_many_requests">`, "rate limit exceeded"}},
	})
}

// TestProxyConfiguration: another prefix moves the proxy; wrong backend credentials are the
// operator's problem, told as such (500), never a challenge to the caller.
func TestProxyConfiguration(t *testing.T) {
	e := newEnv(t, func(c *config.Config) {
		c.ExplorerRate = config.Rate{}
		c.ExplorerProxyPrefix = "/mirror/obs"
		c.ExplorerBackendPassword = "not-the-password"
	})
	e.run(t, []call{
		{name: "the old prefix is nobody's", path: "/obs/source", wantStatus: 404, wantBody: []string{`<!doctype html>`, `Page not found`}},
		{name: "wrong credentials", path: "/mirror/obs/source", wantStatus: 500,
			wantBody: []string{`<status code="internal_error">`, "refused the explorer's credentials (--explorer-backend-user explorer)"}},
		{name: "refusals need no backend", method: "PUT", path: "/mirror/obs/source/p/_meta", wantStatus: 405},
		{name: "requests neither", path: "/mirror/obs/request", wantStatus: 200},
	})
	if got, _ := e.do(t, call{path: "/mirror/obs/source"}); got.Header.Get("WWW-Authenticate") != "" {
		t.Errorf("the caller was challenged: %v", got.Header)
	}
}

// TestProxyPrefixShadowsNoRoute: every root the appliance mounts is refused as a proxy prefix.
func TestProxyPrefixShadowsNoRoute(t *testing.T) {
	for _, a := range areas {
		for _, p := range a.prefixes {
			if _, err := config.ParseProxyPrefix(p); err == nil {
				t.Errorf("--explorer-proxy-prefix %s would shadow the %s API", p, a.name)
			}
		}
	}
	if _, err := config.ParseProxyPrefix(http.MethodGet); err == nil {
		t.Error("a relative prefix was accepted")
	}
}

// TestProxyReachesOnlyTheCache: with --explorer-follow narrowing the results cache, the proxy
// reaches only the projects the cache holds; the others answer like missing ones.
func TestProxyReachesOnlyTheCache(t *testing.T) {
	e := newEnv(t, func(c *config.Config) {
		c.ExplorerRate = config.Rate{}
		c.ExplorerFollow = []string{"Pocket:*"}
	})
	missing, _ := e.do(t, call{path: "/source/nope/_meta", auth: asExplorer})
	e.run(t, []call{
		{name: "followed", path: "/obs/source/Pocket:1.0/_meta", wantStatus: 200, wantBody: []string{`<project name="Pocket:1.0">`}},
		{name: "not followed: the missing project's answer", path: "/obs/source/devel:tools/_meta", wantStatus: 404,
			wantExact: strings.ReplaceAll(missing.Body, "nope", "devel:tools"), wantHeader: map[string]string{"X-Opensuse-Errorcode": "unknown_project"}},
		{name: "not followed: as rdiff's other side", method: "POST", path: "/obs/source/Pocket:1.0/pocket-cli?cmd=diff&oproject=devel:tools&opackage=pocket-cli", wantStatus: 404},
	})
}
