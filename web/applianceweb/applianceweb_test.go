package applianceweb

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/appliancesvc"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/appliance"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/outbox"
	"github.com/pocketforge/pocketforge/web"
)

const (
	token = "test-bootstrap-token-0123456789"
	csrf  = "0123456789abcdef0123456789abcdef" // the pf_csrf cookie and form field of the tests
)

// env is the appliance page over a fresh store with one e-mail and a journal of one request.
type env struct {
	app      *fiber.App
	replaced int
	filter   Filter // the last filter the journal was asked with
}

func newEnv(t *testing.T, devClock bool) *env {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	err = db.Exclusive(func(tx kv.Tx) error {
		if _, err := appliance.EnsureCredentials(tx, token, "admin-pass"); err != nil {
			return err
		}
		return outbox.Send(tx, &outbox.Mail{Time: time.Now(), API: "cloud", From: "noreply@pocketforge.test",
			To: []string{"demo@example.com"}, Subject: "<script>alert(1)</script>", Body: "Welcome <b>demo</b>"})
	})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{}
	svc := appliancesvc.New(db, appliancesvc.Options{Clock: clock.NewSettable(0), DevClock: devClock, OnReplace: func() { e.replaced++ },
		World: domains.DemoWorld()})
	e.app = fiber.New(fiber.Config{ErrorHandler: errorPage, DisableStartupMessage: true})
	Bind(e.app, Deps{
		Site: &web.Site{}, Appliance: svc, ClientIP: func(c *fiber.Ctx) string { return c.IP() },
		Checks: func() []web.Check { return []web.Check{{Name: "store", OK: true}, {Name: "fixtures", OK: true}} },
		Requests: func(f Filter) ([]Request, int) {
			e.filter = f
			return []Request{{ID: "r1", Time: time.Now(), API: "cloud", Method: "GET", Path: "/v4/<script>x</script>", Status: 404, RemoteIP: "192.0.2.1"}}, 1000
		},
	})
	return e
}

// errorPage is the app's error handler in small: the statuses of fiber errors and the store's
// sentinels, drawn as the site's error page.
func errorPage(c *fiber.Ctx, err error) error {
	status, msg := http.StatusInternalServerError, err.Error()
	var fe *fiber.Error
	switch {
	case errors.As(err, &fe):
		status = fe.Code
	case errors.Is(err, store.ErrNotFound):
		status = http.StatusNotFound
	case errors.Is(err, store.ErrForbidden):
		status = http.StatusForbidden
	case errors.Is(err, store.ErrInvalid):
		status = http.StatusBadRequest
	}
	return web.ErrorPage(c, status, msg)
}

type response struct {
	status int
	header http.Header
	body   string
}

// do sends method path with form (url-encoded, csrf added unless noCSRF) and the session sid.
func (e *env) do(t *testing.T, method, path, sid string, form url.Values, noCSRF bool) response {
	t.Helper()
	var body io.Reader
	if form != nil {
		if !noCSRF {
			form.Set("csrf", csrf)
			if sid != "" { // a signed-in browser's pages carry its session's token
				form.Set("csrf", web.FormToken(sessionCookie, sid))
			}
		}
		body = strings.NewReader(form.Encode())
	}
	req := httptest.NewRequest(method, path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	cookie := "pf_csrf=" + csrf
	if sid != "" {
		cookie += "; " + sessionCookie + "=" + sid
	}
	req.Header.Set("Cookie", cookie)
	resp, err := e.app.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, string(data)}
}

// signIn signs in with the right token and returns the session id.
func (e *env) signIn(t *testing.T) string {
	t.Helper()
	r := e.do(t, "POST", "/appliance/signin", "", url.Values{"token": {token}}, false)
	if r.status != http.StatusSeeOther || r.header.Get("Location") != "/appliance" {
		t.Fatalf("sign-in: %d %s %s", r.status, r.header.Get("Location"), r.body)
	}
	for _, c := range r.header.Values("Set-Cookie") {
		if v, ok := strings.CutPrefix(c, sessionCookie+"="); ok {
			for _, attr := range []string{"HttpOnly", "SameSite=Strict", "Path=/appliance"} {
				if !strings.Contains(strings.ToLower(c), strings.ToLower(attr)) {
					t.Errorf("session cookie %q lacks %s", c, attr)
				}
			}
			sid, _, _ := strings.Cut(v, ";")
			return sid
		}
	}
	t.Fatalf("sign-in set no session cookie: %v", r.header.Values("Set-Cookie"))
	return ""
}

func expect(t *testing.T, r response, status int, contains []string, excludes ...string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
	for _, w := range contains {
		if !strings.Contains(r.body, w) {
			t.Errorf("body lacks %q:\n%s", w, r.body)
		}
	}
	for _, n := range excludes {
		if strings.Contains(r.body, n) {
			t.Errorf("body must not contain %q", n)
		}
	}
}

func TestSignIn(t *testing.T) {
	e := newEnv(t, true)
	expect(t, e.do(t, "GET", "/appliance", "", nil, false), 200,
		[]string{`id="signin-form"`, `name="token"`, `<label for="token">`, `name="csrf" value="` + csrf})
	expect(t, e.do(t, "POST", "/appliance/signin", "", url.Values{"token": {"wrong"}}, false), 401,
		[]string{"That is not the bootstrap token."})
	expect(t, e.do(t, "POST", "/appliance/signin", "", url.Values{"token": {""}}, false), 400,
		[]string{"Paste the bootstrap token"})
	expect(t, e.do(t, "POST", "/appliance/signin", "", url.Values{"token": {token}}, true), 403,
		[]string{"did not come from this site"})
	// A page asked for without a session asks for the token in place, and comes back to it.
	expect(t, e.do(t, "GET", "/appliance/outbox?to=a", "", nil, false), 401,
		[]string{`id="signin-form"`, `name="next" value="/appliance/outbox?to=a"`}, "<script>alert")
	expect(t, e.do(t, "GET", "/appliance/outbox", "forged-session", nil, false), 401, []string{`id="signin-form"`})
	r := e.do(t, "POST", "/appliance/signin", "", url.Values{"token": {token}, "next": {"/appliance/outbox"}}, false)
	if r.status != 303 || r.header.Get("Location") != "/appliance/outbox" {
		t.Errorf("sign-in with next: %d %q", r.status, r.header.Get("Location"))
	}

	sid := e.signIn(t)
	expect(t, e.do(t, "GET", "/appliance", sid, nil, false), 200,
		[]string{`id="readiness"`, "store: <span class=\"ok\">ok</span>", "● ready", `id="clock-advance"`,
			`href="/appliance/snapshot"`, `href="/appliance/reset"`, `id="signout"`})
	expect(t, e.do(t, "POST", "/appliance/signout", sid, url.Values{}, true), 403, nil)
	r = e.do(t, "POST", "/appliance/signout", sid, url.Values{}, false)
	if r.status != 303 {
		t.Fatalf("sign-out: %d", r.status)
	}
	expect(t, e.do(t, "GET", "/appliance", sid, nil, false), 200, []string{`id="signin-form"`}, `id="readiness"`)
	expect(t, e.do(t, "POST", "/appliance/reset", sid, url.Values{}, false), 401, []string{"Sign in with the bootstrap token first"})
}

// TestSignInThrottle: the page counts wrong tokens in appliancesvc's throttle — ten are answered
// 401, then the address is locked and even the right token gets 429 with Retry-After.
func TestSignInThrottle(t *testing.T) {
	e := newEnv(t, false)
	for i := range 10 {
		r := e.do(t, "POST", "/appliance/signin", "", url.Values{"token": {"guess"}}, false)
		if r.status != 401 {
			t.Fatalf("wrong token %d: %d", i+1, r.status)
		}
	}
	r := e.do(t, "POST", "/appliance/signin", "", url.Values{"token": {token}}, false)
	expect(t, r, 429, []string{"Too many wrong bootstrap tokens from this address; try again in 30 seconds."})
	if r.header.Get("Retry-After") != "30" {
		t.Errorf("Retry-After %q", r.header.Get("Retry-After"))
	}
}

func TestLists(t *testing.T) {
	e := newEnv(t, false)
	sid := e.signIn(t)
	expect(t, e.do(t, "GET", "/appliance/requests?api=cloud&method=GET&path=/v4/&status=4&limit=20", sid, nil, false), 200,
		[]string{`id="journal"`, "/v4/&lt;script&gt;x&lt;/script&gt;", "of the last 1000 requests", `value="/v4/"`},
		"<script>x")
	if want := (Filter{API: "cloud", Method: "GET", PathPrefix: "/v4/", Status: 4, Limit: 20}); e.filter != want {
		t.Errorf("journal filter %+v, want %+v", e.filter, want)
	}
	expect(t, e.do(t, "GET", "/appliance/requests?limit=0", sid, nil, false), 400, []string{"limit must be a whole number from 1 to 200"})
	expect(t, e.do(t, "GET", "/appliance/requests?status=abc", sid, nil, false), 400, []string{"status must be"})

	expect(t, e.do(t, "GET", "/appliance/outbox", sid, nil, false), 200,
		[]string{`id="outbox"`, `href="/appliance/outbox/1"`, "&lt;script&gt;alert(1)&lt;/script&gt;", "demo@example.com"},
		"<script>alert")
	expect(t, e.do(t, "GET", "/appliance/outbox?to=nobody@example.com", sid, nil, false), 200, []string{"No e-mails."})
	expect(t, e.do(t, "GET", "/appliance/outbox/1", sid, nil, false), 200,
		[]string{`data-testid="mail-subject">&lt;script&gt;alert(1)&lt;/script&gt;`, "Welcome &lt;b&gt;demo&lt;/b&gt;", "noreply@pocketforge.test",
			"<title>&lt;script&gt;alert(1)&lt;/script&gt; · pocketforge</title>"},
		"<script>alert", "<b>demo")
	expect(t, e.do(t, "GET", "/appliance/outbox/99", sid, nil, false), 404, []string{"Page not found"})
	expect(t, e.do(t, "GET", "/appliance/outbox/x", sid, nil, false), 404, nil)
}

func TestClock(t *testing.T) {
	e := newEnv(t, true)
	sid := e.signIn(t)
	expect(t, e.do(t, "POST", "/appliance/clock", sid, url.Values{"advance": {"24h"}}, true), 403, nil)
	r := e.do(t, "POST", "/appliance/clock", sid, url.Values{"advance": {"24h"}}, false)
	if r.status != 303 {
		t.Fatalf("advance: %d %s", r.status, r.body)
	}
	expect(t, e.do(t, "GET", "/appliance?moved=1", sid, nil, false), 200, []string{`data-testid="clock-offset">24h0m0s<`, "The clock moved."})
	expect(t, e.do(t, "POST", "/appliance/clock", sid, url.Values{"advance": {"<b>soon"}}, false), 400,
		[]string{`id="clock-error"`, "advance: &#34;&lt;b&gt;soon&#34; is not a duration like 36h, -90m or 7d"}, "<b>soon")
	expect(t, e.do(t, "POST", "/appliance/clock", sid, url.Values{"advance": {"1h"}, "offset": {"0s"}}, false), 400,
		[]string{"send exactly one of"})
	if r := e.do(t, "POST", "/appliance/clock", sid, url.Values{"offset": {"0s"}}, false); r.status != 303 {
		t.Fatalf("offset: %d", r.status)
	}
	expect(t, e.do(t, "GET", "/appliance", sid, nil, false), 200, []string{`data-testid="clock-offset">0s<`})

	fixed := newEnv(t, false)
	sid = fixed.signIn(t)
	expect(t, fixed.do(t, "GET", "/appliance", sid, nil, false), 200, []string{`id="clock-fixed"`}, `id="clock-advance"`)
	expect(t, fixed.do(t, "POST", "/appliance/clock", sid, url.Values{"advance": {"24h"}}, false), 403, []string{"--dev-clock"})
}

func TestData(t *testing.T) {
	e := newEnv(t, false)
	sid := e.signIn(t)
	r := e.do(t, "GET", "/appliance/snapshot", sid, nil, false)
	if r.status != 200 || len(r.body) < 4096 || !strings.HasPrefix(r.header.Get("Content-Disposition"), `attachment; filename="pocketforge-`) ||
		r.header.Get("X-Pocketforge-Schema-Version") == "" {
		t.Fatalf("snapshot: %d, %d bytes, %v", r.status, len(r.body), r.header)
	}
	for _, action := range []string{"reset", "reseed"} {
		expect(t, e.do(t, "GET", "/appliance/"+action, sid, nil, false), 200,
			[]string{`id="confirm-form"`, `action="/appliance/` + action + `"`, "Yes, " + action + " the data"})
		expect(t, e.do(t, "POST", "/appliance/"+action, sid, url.Values{}, true), 403, nil)
	}
	if e.replaced != 0 {
		t.Fatal("a refused post replaced the data")
	}
	expect(t, e.do(t, "POST", "/appliance/reset", sid, url.Values{}, false), 200, []string{"The data is empty"})
	if e.replaced != 1 {
		t.Fatalf("replace hook ran %d times", e.replaced)
	}
	expect(t, e.do(t, "GET", "/appliance/outbox", sid, nil, false), 200, []string{"No e-mails."})
	e.signIn(t) // the token outlives a reset
	expect(t, e.do(t, "POST", "/appliance/reseed", sid, url.Values{}, false), 200, []string{"The demo data is loaded again"})
	if e.replaced != 2 {
		t.Fatalf("replace hook ran %d times", e.replaced)
	}
}

func TestSafeNext(t *testing.T) {
	for in, want := range map[string]string{
		"/appliance": "/appliance", "/appliance/outbox?to=a": "/appliance/outbox?to=a", "/appliance?moved=1": "/appliance?moved=1",
		"": "", "//evil.example/appliance": "", "https://evil.example/": "", "/appliancex": "", "/appliance/\\evil": "", "/appliance//evil": "",
	} {
		if got := safeNext(in); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", in, got, want)
		}
	}
}
