package api

import (
	"html"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/explorersvc/remote"
)

// TestRemoteBackendFailuresOnTheWire: each way a remote build service fails is answered with
// the same status, code and words everywhere the explorer's reads surface — the explorer's
// {"error"}, the proxy's <status> (and X-Opensuse-Errorcode), the build results pages — byte
// for byte: the remote client's errors are the explorer domain's, and each renderer shows them
// as it showed the API's own error value before.
func TestRemoteBackendFailuresOnTheWire(t *testing.T) {
	var mode atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch m := mode.Load().(string); {
		case m == "refused":
			w.WriteHeader(http.StatusUnauthorized)
		case m == "failed":
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`<status code="internal_error"><summary>backend &amp; co. down</summary></status>`))
		case m == "nonsense":
			w.Write([]byte(`<directory><entry name="x"`))
		case m == "no source" || r.URL.Path != "/source":
			http.NotFound(w, r)
		default: // "no configuration": projects answer, /configuration does not
			w.Write([]byte(`<directory count="0"/>`))
		}
	}))
	t.Cleanup(srv.Close)
	far := remoteExplorer(t, srv.URL, nil)
	refused := "The build service refused the explorer's credentials (401 on GET /source); the operator has to fix --explorer-backend-user and --explorer-backend-password"
	for _, c := range []struct{ mode, code, msg string }{
		{"refused", "backend_refused", refused},
		{"failed", "backend_failed", "The build service answered 500 on GET /source: backend & co. down"},
		{"nonsense", "backend_failed", "The build service's answer to GET /source is not the document OBS sends: XML syntax error on line 1: unexpected EOF"},
		{"no source", "backend_failed", "The build service has no /source: is --explorer-backend an OBS API root?"},
	} {
		mode.Store(c.mode)
		t.Run(c.mode, func(t *testing.T) {
			far.run(t, []call{
				{name: "results", path: "/api/projects/Pocket:1.0/_result", wantStatus: 500, wantExact: `{"error":` + jsonString(c.msg) + `}`},
				{name: "proxy", path: "/obs/source/Pocket:1.0/_meta", wantStatus: 500,
					wantExact:  `<status code="` + c.code + `"><summary>` + xmlText(c.msg) + `</summary></status>`,
					wantHeader: map[string]string{"X-Opensuse-Errorcode": c.code}},
				{name: "page", path: "/projects", wantStatus: 500, wantBody: []string{html.EscapeString(c.msg)}},
				{name: "monitor page", path: "/projects/Pocket:1.0/monitor", wantStatus: 500, wantBody: []string{html.EscapeString(c.msg)}},
			})
			checkSamePage(t, far, "/projects")
		})
	}
	mode.Store("no configuration")
	far.run(t, []call{
		{name: "backend-config", path: "/api/backend-config", wantStatus: 500, wantExact: `{"error":"The build service has no /configuration"}`},
		{name: "binary search", path: "/api/search/binary?q=bash", wantStatus: 500,
			wantExact: `{"error":"failed to get the search results from the build backend"}`},
		{name: "binary search page", path: "/explorer?kind=binaries&q=bash", wantStatus: 500,
			wantBody: []string{html.EscapeString("The build service has no published binary search (/search/published/binary/id)")}},
		{name: "package page", path: "/explorer/packages/pocket-cli", wantStatus: 200,
			wantBody: []string{html.EscapeString("The build service's binary search is not available.")}},
	})
}

// TestRemoteBackendDownAndSlowOnTheWire: a remote nobody listens on (backend_unreachable) and
// one that never answers (backend_timeout, 504) carry their codes into the proxy's <status>,
// and the pages answer their statuses with the same words.
func TestRemoteBackendDownAndSlowOnTheWire(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	down := remoteExplorer(t, "http://"+addr, nil)
	unreachable := "The build service could not be reached: the build service at " + addr + " could not be reached: "
	down.run(t, []call{
		{name: "proxy", path: "/obs/source/Pocket:1.0/_meta", wantStatus: 500,
			wantBody:   []string{`<status code="backend_unreachable"><summary>` + unreachable},
			wantHeader: map[string]string{"X-Opensuse-Errorcode": "backend_unreachable"}},
		{name: "page", path: "/projects", wantStatus: 500, wantBody: []string{html.EscapeString(unreachable)}},
	})

	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	remote, err := remote.New(srv.URL, "explorer", "pw", 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	slow := remoteExplorer(t, srv.URL, remote)
	inTime := "The build service did not answer in time: the build service did not answer in time (300ms at " + strings.TrimPrefix(srv.URL, "http://") + "): "
	slow.run(t, []call{
		{name: "results", path: "/api/projects/Pocket:1.0/_result", wantStatus: 504, wantBody: []string{`{"error":` + strings.TrimSuffix(jsonString(inTime), `"`)}},
		{name: "proxy", path: "/obs/source/Pocket:1.0/_meta", wantStatus: 504,
			wantBody:   []string{`<status code="backend_timeout"><summary>` + inTime},
			wantHeader: map[string]string{"X-Opensuse-Errorcode": "backend_timeout"}},
		{name: "page", path: "/projects", wantStatus: 504, wantBody: []string{html.EscapeString(inTime)}},
	})
}

// checkSamePage: the error page is the same page twice over (so a page's words and status
// are all there is to compare).
func checkSamePage(t *testing.T, e *env, path string) {
	t.Helper()
	a, _ := e.do(t, call{method: "GET", path: path})
	b, _ := e.do(t, call{method: "GET", path: path})
	if a.Body != b.Body {
		t.Errorf("%s answers two pages:\n%s\n%s", path, a.Body, b.Body)
	}
}

func jsonString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

func xmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
