package api

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/explorersvc/remote"
	"github.com/pocketforge/pocketforge/fixtures"
	"github.com/pocketforge/pocketforge/internal/testkit/testdomains"
	"github.com/pocketforge/pocketforge/store"
)

// The explorer with a remote build service (--explorer-backend): the judge is the appliance's
// own build API served on a loopback port — a second appliance pointed at it must answer the
// explorer's reads and the proxy exactly as the first answers them in process.

// remoteExplorer is an appliance whose explorer reads the build service at url; remote, when
// set, is the client it uses (a test's short timeout). It has the demo world of its own (the
// git model fork-builds reads is the explorer's, not the build service's), but its explorer
// never reads that world's build service.
func remoteExplorer(t *testing.T, url string, remote *remote.Client) *env {
	t.Helper()
	cfg, err := config.Load([]string{"--data", filepath.Join(t.TempDir(), "r.db"),
		"--explorer-rate", "0", "--explorer-backend", url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(cfg.Data, store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clk := clock.NewSettable(0)
	if _, err := fixtures.Ensure(db, false, clk.Now()); err != nil {
		t.Fatal(err)
	}
	ready := kit.NewReadiness("store")
	ready.Set("store", true)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var opts []domains.Option
	if remote != nil {
		opts = append(opts, domains.WithRemote(remote))
	}
	app := New(cfg, Deps{Store: db, Clock: clk, Ready: ready, Journal: kit.NewJournal(10), Log: log,
		Domains: testdomains.Open(t, cfg, db, clk, log, nil, opts...)})
	return &env{cfg: cfg, app: app, db: db, ready: ready, clock: clk}
}

// TestRemoteBackendAnswersAsInProcess: results, fork builds, the proxy's reads and its
// refusals through a remote build service are the in-process answers, byte for byte.
func TestRemoteBackendAnswersAsInProcess(t *testing.T) {
	local := proxyEnv(t, nil)
	// a project only the remote has: the far explorer must show it
	only := call{method: "PUT", path: "/source/home:alice:only/_meta", auth: basicOf("alice", "alice-password"),
		body: `<project name="home:alice:only"><title/><description/><person userid="alice" role="maintainer"/>` +
			`<repository name="standard"><path project="Pocket:1.0" repository="standard"/><arch>x86_64</arch></repository></project>`}
	if got, _ := local.do(t, only); got.Status != 200 {
		t.Fatal(got.Status, got.Body)
	}
	addr := serveReal(t, local)
	far := remoteExplorer(t, "http://"+addr, nil)
	for _, path := range []string{
		"/api/projects/Pocket:1.0/_result",
		"/api/projects/Pocket:1.0/_result?repository=standard&arch=x86_64&status=succeeded",
		"/api/projects/devel:libs/_result",
		"/api/projects/home:alice:only/_result",
		"/obs/source/home:alice:only/_meta",
		"/api/projects/home:alice:secret/_result",
		"/api/projects/nope/_result",
		"/api/projects/Pocket:1.0/_result?lastbuild=1",
		"/api/packages/libpocket/fork-builds",
		"/obs/source",
		"/obs/source/Pocket:1.0/_meta",
		"/obs/source/Pocket%3A1.0/pocket-cli?expand=1",
		"/obs/build/Pocket:1.0/_result?package=pocket-cli&multibuild=1&locallink=1",
		"/obs/build/Pocket:1.0/standard/x86_64/pocket-cli/_log?nostream=1",
		"/obs/source/home:alice:secret/_meta",
		"/obs/source/Pocket:1.0/nope",
		"/obs/request?view=collection",
	} {
		t.Run(path, func(t *testing.T) {
			want, _ := local.do(t, call{method: "GET", path: path})
			got, _ := far.do(t, call{method: "GET", path: path})
			if strings.Contains(path, "home:alice:only") && want.Status != 200 {
				t.Fatalf("the remote-only project: %d %s", want.Status, want.Body)
			}
			if got.Status != want.Status || got.Body != want.Body {
				t.Fatalf("remote %d %q\nin process %d %q", got.Status, clipBody(got.Body), want.Status, clipBody(want.Body))
			}
			if got.Header.Get("X-Opensuse-Errorcode") != want.Header.Get("X-Opensuse-Errorcode") {
				t.Errorf("error code: remote %q, in process %q", got.Header.Get("X-Opensuse-Errorcode"), want.Header.Get("X-Opensuse-Errorcode"))
			}
		})
	}
	for _, c := range []call{
		{method: "POST", path: "/obs/source/Pocket:1.0/pocket-cli?cmd=diff&oproject=devel:tools&opackage=pocket-cli"},
		{method: "PUT", path: "/obs/source/Pocket:1.0/pocket-cli/x", body: "x"},
	} {
		want, _ := local.do(t, c)
		got, _ := far.do(t, c)
		if got.Status != want.Status || got.Body != want.Body {
			t.Errorf("%s %s: remote %d %q, in process %d %q", c.method, c.path, got.Status, clipBody(got.Body), want.Status, clipBody(want.Body))
		}
	}
	// the backend configuration: the remote's schedulers and the settings its /configuration has
	want, _ := local.do(t, call{method: "GET", path: "/api/backend-config"})
	got, _ := far.do(t, call{method: "GET", path: "/api/backend-config"})
	if got.Status != 200 || want.Status != 200 || !strings.Contains(got.Body, `"schedulers":`) ||
		schedulersOf(got.Body) != schedulersOf(want.Body) {
		t.Errorf("backend-config: remote %d %s\nin process %d %s", got.Status, got.Body, want.Status, want.Body)
	}
}

// schedulersOf cuts the schedulers object out of a backend-config answer.
func schedulersOf(body string) string {
	_, after, _ := strings.Cut(body, `"schedulers":`)
	before, _, _ := strings.Cut(after, "}")
	return before
}

func clipBody(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

// TestRemoteBackendDown: a remote nobody listens on answers 500 with an error at once, in the
// explorer's JSON and in the proxy's <status>.
func TestRemoteBackendDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	far := remoteExplorer(t, "http://"+addr, nil)
	start := time.Now()
	far.run(t, []call{
		{name: "results", path: "/api/projects/Pocket:1.0/_result", wantStatus: 500,
			wantBody: []string{`{"error":"The build service could not be reached: `}},
		{name: "backend-config", path: "/api/backend-config", wantStatus: 500,
			wantBody: []string{`{"error":"The build service could not be reached: `}},
		{name: "proxy, a project", path: "/obs/source/Pocket:1.0/_meta", wantStatus: 500,
			wantBody: []string{`<status code="`, "The build service could not be reached"}},
		{name: "proxy, no project", path: "/obs/source", wantStatus: 500,
			wantBody: []string{`<status code="`, "The build service did not answer: the build service at " + addr + " could not be reached"}},
	})
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("a closed port took %s", took)
	}
}

// TestRemoteBackendHangs: a remote that accepts and never answers is 504 after the client's
// timeout (shortened here from the seed's 60 s), never a hang.
func TestRemoteBackendHangs(t *testing.T) {
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
	far := remoteExplorer(t, srv.URL, remote)
	start := time.Now()
	far.run(t, []call{
		{name: "results", path: "/api/projects/Pocket:1.0/_result", wantStatus: 504,
			wantBody: []string{`{"error":"The build service did not answer in time: `}},
		{name: "backend-config", path: "/api/backend-config", wantStatus: 504, wantBody: []string{`{"error":"The build service did not answer in time`}},
		{name: "proxy, no project", path: "/obs/source", wantStatus: 504, wantBody: []string{`<status code="`, "did not answer in time"}},
		{name: "proxy, a project", path: "/obs/build/Pocket:1.0/_result", wantStatus: 504, wantBody: []string{`<status code="`, "did not answer in time"}},
	})
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("four requests to a hanging backend took %s", took)
	}
}
