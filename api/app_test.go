package api

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/fixtures"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/internal/testkit/testdomains"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/appliance"
	"github.com/pocketforge/pocketforge/store/kv"
)

const token = "test-bootstrap-token"

// env is one in-memory appliance on its own temp data file, seeded from fixtures.
type env struct {
	cfg   *config.Config
	app   *fiber.App
	db    *store.DB
	ready *kit.Readiness
	clock *clock.Settable
}

func newEnv(t testing.TB, mutate func(*config.Config)) *env {
	t.Helper()
	cfg, err := config.Load([]string{"--data", filepath.Join(t.TempDir(), "d.db")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if mutate != nil {
		mutate(cfg)
	}
	db, err := store.Open(cfg.Data, store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Exclusive(func(tx kv.Tx) error {
		_, err := appliance.EnsureCredentials(tx, token, "admin-pass")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	clk := clock.NewSettable(0)
	if _, err := fixtures.Ensure(db, cfg.NoFixtures, clk.Now()); err != nil {
		t.Fatal(err)
	}
	ready := kit.NewReadiness("store", "fixtures")
	ready.Set("store", true)
	ready.Set("fixtures", true)
	log := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: cfg.LogLevel}))
	app := New(cfg, Deps{
		Store: db, Clock: clk, Ready: ready, Journal: kit.NewJournal(cfg.JournalSize),
		Log:       log,
		Domains:   testdomains.Open(t, cfg, db, clk, log, nil),
		AccessLog: kit.NewAccessLog(io.Discard, "text", cfg.LogLevel),
	})
	app.Get("/v4/test-panic", func(*fiber.Ctx) error { panic("boom: secret internals") })
	app.Get("/statistics/test-panic", func(*fiber.Ctx) error { panic("boom") })
	return &env{cfg: cfg, app: app, db: db, ready: ready, clock: clk}
}

// call is one request of a scenario.
type call struct {
	name       string
	method     string
	path       string
	body       string
	auth       string // "token" sends the bootstrap token; anything else is sent as is
	header     map[string]string
	wantStatus int
	wantBody   []string          // substrings of the body
	wantExact  string            // the whole body, when set
	wantHeader map[string]string // exact header values
	notInBody  []string
}

func (e *env) do(t testing.TB, c call) (apitest.Response, string) {
	t.Helper()
	r := apitest.Request{Method: c.method, Path: c.path, Body: c.body, Header: map[string]string{}}
	for k, v := range c.header {
		r.Header[k] = v
	}
	switch c.auth {
	case "":
	case "token":
		r.Bearer = token
	default:
		r.Header["Authorization"] = c.auth
	}
	got := apitest.Do(t, e.app, r)
	return got, got.Body
}

// adminBasic signs in to the build API as the demo's Admin (the appliance's admin password).
var adminBasic = "Basic " + base64.StdEncoding.EncodeToString([]byte("Admin:admin-pass"))

func (e *env) run(t *testing.T, calls []call) {
	t.Helper()
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			got, _ := e.do(t, c)
			apitest.Expect{Status: c.wantStatus, Exact: c.wantExact, Contains: c.wantBody, Excludes: c.notInBody, Header: c.wantHeader}.Check(t, got)
		})
	}
}

// TestErrorFormats: every API answers errors in its own format from day one — fiber's 404, a
// body over the limit and a panic alike.
func TestErrorFormats(t *testing.T) {
	e := newEnv(t, nil) // a body over the limit is refused before fiber's app.Test sees it: see e2e_test.go
	e.run(t, []call{
		{name: "cloud 404", path: "/v4/nothing", wantStatus: 404,
			wantExact: `{"errors":[{"reason":"Not found"}]}`, wantHeader: map[string]string{"Content-Type": "application/json"}},
		{name: "cloud beta 404", path: "/v4beta/account/maintenance/x", wantStatus: 404, wantExact: `{"errors":[{"reason":"Not found"}]}`},
		{name: "oauth 404", method: "POST", path: "/oauth/nothing", wantStatus: 404,
			wantExact:  `{"error":"invalid_request","error_description":"Not Found"}`,
			wantHeader: map[string]string{"Content-Type": "application/json", "Cache-Control": "no-store"}},
		{name: "oauth wrong method", method: "PUT", path: "/oauth/token", wantStatus: 405,
			wantExact: `{"error":"invalid_request","error_description":"Method Not Allowed"}`},
		{name: "build path without credentials", path: "/statistics/nothing", wantStatus: 401,
			wantBody:   []string{`<status code="authentication_required">`},
			wantHeader: map[string]string{"WWW-Authenticate": `Basic realm="API login"`}},
		{name: "build wrong method without credentials", method: "PATCH", path: "/source", wantStatus: 401,
			wantHeader: map[string]string{"WWW-Authenticate": `Basic realm="API login"`}},
		{name: "build wrong method", method: "PATCH", path: "/source", auth: adminBasic, wantStatus: 405,
			wantBody: []string{`<status code="method_not_allowed">`}},
		{name: "build 404", path: "/statistics/nothing", auth: adminBasic, wantStatus: 404,
			wantBody:   []string{`<status code="not_found">`, "<summary>"},
			wantHeader: map[string]string{"X-Opensuse-Errorcode": "not_found", "Content-Type": "application/xml; charset=utf-8"}},
		{name: "build root path 404", path: "/about/x", auth: adminBasic, wantStatus: 404, wantBody: []string{"<status"}},
		{name: "leading slashes (osc's //search/package)", path: "//search/package?match=@name='x'", auth: adminBasic, wantStatus: 200,
			wantBody: []string{`<collection matches="0">`}},
		{name: "leading slashes, an error", path: "///about/x", auth: adminBasic, wantStatus: 404, wantBody: []string{"<status"}},
		{name: "explorer 404", path: "/api/products/none", wantStatus: 404, wantExact: `{"error":"Not Found"}`},
		{name: "badges answer badges", path: "/badge/x.svg", wantStatus: 200, wantBody: []string{`<svg`, `error (project &#39;x&#39; not found)`}},
		{name: "v4 lookalike is a page nobody has", path: "/v4x", wantStatus: 404, wantBody: []string{`<!doctype html>`, `Page not found`, `<code>/v4x</code>`}},
		{name: "cloud panic", path: "/v4/test-panic", wantStatus: 500,
			wantBody: []string{`{"errors":[{"reason":"internal error (request id `}, notInBody: []string{"boom", "goroutine"}},
		{name: "build panic", path: "/statistics/test-panic", auth: adminBasic, wantStatus: 500,
			wantBody: []string{`<status code="internal_error">`}, notInBody: []string{"boom"}},
	})
}

func TestRequestID(t *testing.T) {
	e := newEnv(t, nil)
	resp, _ := e.do(t, call{path: "/_appliance/livez", header: map[string]string{"X-Request-Id": "client-id-42"}})
	if got := resp.Header.Get("X-Request-Id"); got != "client-id-42" {
		t.Fatalf("client id not echoed: %q", got)
	}
	resp, _ = e.do(t, call{path: "/_appliance/livez", header: map[string]string{"X-Request-Id": "bad id with spaces"}})
	if got := resp.Header.Get("X-Request-Id"); got == "" || strings.Contains(got, " ") {
		t.Fatalf("unsafe id kept: %q", got)
	}
}

func TestReadiness(t *testing.T) {
	e := newEnv(t, nil)
	e.ready.Set("fixtures", false)
	e.run(t, []call{
		{name: "livez while starting", path: "/_appliance/livez", wantStatus: 200},
		{name: "readyz while starting", path: "/_appliance/readyz", wantStatus: 503,
			wantBody: []string{`"status":"starting"`, `{"name":"fixtures","ok":false}`}, wantHeader: map[string]string{"Retry-After": "1"}},
		{name: "cloud API held back", path: "/v4/account", wantStatus: 503, wantBody: []string{`"errors"`, "starting"}},
		{name: "build API held back", path: "/source", wantStatus: 503, wantBody: []string{`code="service_unavailable"`}},
	})
	e.ready.Set("fixtures", true)
	e.run(t, []call{
		{name: "readyz when ready", path: "/_appliance/readyz", wantStatus: 200, wantBody: []string{`"status":"ready"`}},
	})
}

func TestApplianceAuth(t *testing.T) {
	e := newEnv(t, nil)
	var calls []call
	for _, p := range []string{"/_appliance/snapshot", "/_appliance/requests", "/_appliance/outbox", "/_appliance/clock"} {
		calls = append(calls,
			call{name: "no token " + p, path: p, wantStatus: 401, wantBody: []string{"Authorization: Bearer"},
				wantHeader: map[string]string{"WWW-Authenticate": `Bearer realm="pocketforge appliance"`}},
			call{name: "wrong token " + p, path: p, auth: "Bearer nope-nope-nope", wantStatus: 401, wantExact: `{"error":"invalid bootstrap token"}`},
			call{name: "basic scheme " + p, path: p, auth: "Basic dG9rZW46", wantStatus: 401},
		)
	}
	for _, p := range []string{"/_appliance/restore", "/_appliance/reset", "/_appliance/reseed"} {
		calls = append(calls, call{name: "no token POST " + p, method: "POST", path: p, wantStatus: 401})
	}
	calls = append(calls, call{name: "token accepted", path: "/_appliance/clock", auth: "token", wantStatus: 200})
	e.run(t, calls)
}

func TestSnapshotRestoreResetReseed(t *testing.T) {
	e := newEnv(t, nil)
	put := func(key string) {
		e.db.Write(func(tx kv.Tx) error { return tx.Bucket([]byte(store.BucketOutbox)).Put([]byte(key), []byte(`{}`)) })
	}
	has := func(key string) (ok bool) {
		e.db.View(func(tx kv.Tx) error {
			ok = tx.Bucket([]byte(store.BucketOutbox)).Get([]byte(key)) != nil
			return nil
		})
		return
	}
	put("before")
	resp, snap := e.do(t, call{path: "/_appliance/snapshot", auth: "token"})
	if resp.Status != 200 || resp.Header.Get("X-Pocketforge-Schema-Version") != strconv.FormatUint(store.SchemaVersion(), 10) ||
		!strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") || len(snap) < 4096 {
		t.Fatalf("snapshot: %d %v (%d bytes)", resp.Status, resp.Header, len(snap))
	}
	put("after")
	e.run(t, []call{
		{name: "restore", method: "POST", path: "/_appliance/restore", body: snap, auth: "token", wantStatus: 200,
			wantBody: []string{`"status":"restored"`, fmt.Sprintf(`"schema_version":%d`, store.SchemaVersion())}},
	})
	if !has("before") || has("after") {
		t.Fatal("restore did not bring back the snapshot's state")
	}
	e.run(t, []call{
		{name: "restore empty body", method: "POST", path: "/_appliance/restore", auth: "token", wantStatus: 400, wantBody: []string{"--data-binary"}},
		{name: "restore garbage", method: "POST", path: "/_appliance/restore", body: strings.Repeat("junk", 2000), auth: "token",
			wantStatus: 400, wantBody: []string{"not a pocketforge data file"}},
		{name: "restore truncated", method: "POST", path: "/_appliance/restore", body: snap[:len(snap)/2], auth: "token", wantStatus: 400},
	})
	if !has("before") {
		t.Fatal("a refused restore touched the data")
	}
	e.run(t, []call{{name: "reset", method: "POST", path: "/_appliance/reset", auth: "token", wantStatus: 200, wantExact: `{"status":"reset"}`}})
	if has("before") {
		t.Fatal("reset kept data")
	}
	e.run(t, []call{
		{name: "token survives reset", path: "/_appliance/clock", auth: "token", wantStatus: 200},
		{name: "reseed", method: "POST", path: "/_appliance/reseed", auth: "token", wantStatus: 200, wantBody: []string{`"status":"reseeded"`}},
	})
}

func TestClock(t *testing.T) {
	fixed := newEnv(t, nil)
	fixed.run(t, []call{
		{name: "get", path: "/_appliance/clock", auth: "token", wantStatus: 200, wantBody: []string{`"offset_seconds":0`, `"dev_clock":false`}},
		{name: "post without --dev-clock", method: "POST", path: "/_appliance/clock", body: `{"advance":"1h"}`, auth: "token",
			wantStatus: 403, wantBody: []string{"--dev-clock"}},
	})
	e := newEnv(t, func(c *config.Config) { c.DevClock = true })
	post := func(name, body string, status int, want ...string) call {
		return call{name: name, method: "POST", path: "/_appliance/clock", body: body, auth: "token", wantStatus: status, wantBody: want}
	}
	e.run(t, []call{
		post("advance a day", `{"advance":"24h"}`, 200, `"offset_seconds":86400`),
		post("advance in days", `{"advance":"2d"}`, 200, `"offset_seconds":259200`),
		post("back to real time", `{"offset":"0s"}`, 200, `"offset_seconds":0`),
		post("set absolute cloud format", `{"now":"2030-01-01T00:00:00"}`, 200, `"now":"2030-01-01T00:00:0`),
		post("two fields", `{"advance":"1h","offset":"0s"}`, 400, "exactly one"),
		post("no field", `{}`, 400, "exactly one"),
		post("unknown field", `{"speed":2}`, 400, "unknown field"),
		post("not json", `tomorrow`, 400, "JSON"),
		post("bad duration", `{"advance":"soon"}`, 400, "not a duration"),
		post("bad time", `{"now":"yesterday"}`, 400, "not a time"),
		post("too far", `{"advance":"40000d"}`, 400),
		post("far absolute", `{"now":"9999-01-01T00:00:00Z"}`, 400, "century"),
	})
	var off any
	e.db.View(func(tx kv.Tx) error { off, _ = appliance.ClockOffset(tx); return nil })
	if off != e.clock.Offset() || e.clock.Now().Year() != 2030 {
		t.Fatalf("persisted offset %v, clock offset %v, now %v", off, e.clock.Offset(), e.clock.Now())
	}
}

func TestJournalEndpoint(t *testing.T) {
	e := newEnv(t, nil)
	e.do(t, call{path: "/v4/one"})
	e.do(t, call{path: "/source/two", header: map[string]string{"User-Agent": "osc/0.169.1"}})
	e.do(t, call{method: "POST", path: "/api/three", body: "abc"})
	e.run(t, []call{
		{name: "all newest first, appliance calls left out", path: "/_appliance/requests", auth: "token", wantStatus: 200,
			wantBody: []string{`"count":3`, `"capacity":1000`, `"path":"/api/three"`, `"bytes_in":3`, `"user_agent":"osc/0.169.1"`}},
		{name: "by api", path: "/_appliance/requests?api=build", auth: "token", wantStatus: 200, wantBody: []string{`"count":1`, `"/source/two"`}},
		{name: "by status class", path: "/_appliance/requests?status=4", auth: "token", wantStatus: 200, wantBody: []string{`"count":3`}},
		{name: "limit", path: "/_appliance/requests?limit=1", auth: "token", wantStatus: 200, wantBody: []string{`"count":1`, `/api/three`}},
		{name: "bad limit", path: "/_appliance/requests?limit=zero", auth: "token", wantStatus: 400, wantBody: []string{"limit must be"}},
		{name: "bad status", path: "/_appliance/requests?status=700", auth: "token", wantStatus: 400},
		{name: "clear", method: "DELETE", path: "/_appliance/requests", auth: "token", wantStatus: 204},
		{name: "cleared", path: "/_appliance/requests", auth: "token", wantStatus: 200, wantBody: []string{`"count":0`}},
	})
}

func TestOutboxEndpoint(t *testing.T) {
	e := newEnv(t, nil)
	e.run(t, []call{
		{name: "empty", path: "/_appliance/outbox", auth: "token", wantStatus: 200, wantExact: `{"count":0,"mails":[]}`},
	})
	e.db.Write(func(tx kv.Tx) error {
		return store.Put(tx, store.BucketOutbox, store.Itob(1), map[string]any{"id": 1, "to": []string{"carol@example.com"}, "subject": "Welcome"})
	})
	e.run(t, []call{
		{name: "lists", path: "/_appliance/outbox", auth: "token", wantStatus: 200, wantBody: []string{`"count":1`, "Welcome"}},
		{name: "by address", path: "/_appliance/outbox?to=nobody@example.com", auth: "token", wantStatus: 200, wantBody: []string{`"count":0`}},
		{name: "bad limit", path: "/_appliance/outbox?limit=-1", auth: "token", wantStatus: 400},
		{name: "clear", method: "DELETE", path: "/_appliance/outbox", auth: "token", wantStatus: 204},
		{name: "cleared", path: "/_appliance/outbox", auth: "token", wantStatus: 200, wantBody: []string{`"count":0`}},
	})
}

func TestSnapshotIsADataFile(t *testing.T) {
	e := newEnv(t, nil)
	_, snap := e.do(t, call{path: "/_appliance/snapshot", auth: "token"})
	path := filepath.Join(t.TempDir(), "snap.db")
	if err := writeFile(path, []byte(snap)); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatalf("a snapshot must open as a data file: %v", err)
	}
	db.Close()
}

func writeFile(path string, data []byte) error {
	return bytesToFile(path, bytes.NewReader(data))
}
