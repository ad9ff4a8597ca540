package consoleweb

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/internal/testkit/demofile"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/web"
)

// The demo world's cloud users (fixtures/data/cloud.json): demo is the demo account's
// unrestricted owner, carol a restricted user of it (account_access read_only, a read_only
// grant on the catalog-doc database), dave the partner account's owner.
const (
	demoPassword  = "demo-password"
	carolPassword = "carol-password"
)

var start = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// env is the console on its own temp data file seeded with the demo world, as the cloud API's
// tests build theirs (api/cloudapi/env_test.go).
type env struct {
	app   *fiber.App
	cloud *cloudsvc.Service
	clock *clock.Fixed
	db    *store.DB
	// accepts counts the transfer accepts AcceptLimit let through, per session token.
	accepts map[uint64]int
}

func newEnv(t testing.TB) *env {
	t.Helper()
	clk := clock.NewFixed(start)
	db := demofile.Open(t, "console-demo", clk.Now(), demofile.Credentials{})
	cloud := cloudsvc.New(db, clk, slog.New(slog.NewTextHandler(io.Discard, nil)), cloudsvc.Options{})
	app := fiber.New(fiber.Config{ErrorHandler: errorPage})
	e := &env{app: app, cloud: cloud, clock: clk, db: db, accepts: map[uint64]int{}}
	limit := func(token uint64) time.Duration { // the API's 2 a minute, counted per token (cloudapi.TransferAcceptLimit)
		if e.accepts[token] == 2 {
			return 30 * time.Second
		}
		e.accepts[token]++
		return 0
	}
	Bind(app, Deps{Site: &web.Site{ExternalURL: func() string { return "http://pocketforge.test" }}, Cloud: cloud, AcceptLimit: limit})
	return e
}

// errorPage is the app's error page with the status the API table gives the errors the
// console returns (api/errors.go renderPage in the appliance).
func errorPage(c *fiber.Ctx, err error) error {
	status := http.StatusInternalServerError
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
	case errors.Is(err, store.ErrConflict):
		status = http.StatusConflict
	}
	return web.ErrorPage(c, status, err.Error())
}

// TestMain removes the seeded template data files after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	apitest.RemoveTemplates()
	os.Exit(code)
}

// browser is one browser on the console: it keeps the cookies it is given and sends them back.
type browser struct {
	t       *testing.T
	e       *env
	cookies map[string]string
}

func (e *env) browser(t *testing.T) *browser {
	return &browser{t: t, e: e, cookies: map[string]string{}}
}

// resp is what came back.
type resp = apitest.Response

// do sends a request with the browser's cookies and keeps the ones set.
func (b *browser) do(method, path string, form url.Values) resp {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req := httptest.NewRequest(method, path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range b.cookies {
		req.AddCookie(&http.Cookie{Name: k, Value: v})
	}
	res, err := b.e.app.Test(req, -1)
	if err != nil {
		b.t.Fatal(err)
	}
	for _, ck := range res.Cookies() {
		if ck.MaxAge < 0 || ck.Value == "" {
			delete(b.cookies, ck.Name)
		} else {
			b.cookies[ck.Name] = ck.Value
		}
	}
	data, _ := io.ReadAll(res.Body)
	return resp{Status: res.StatusCode, Header: res.Header, Body: string(data)}
}

func (b *browser) get(path string) resp { b.t.Helper(); return b.do(http.MethodGet, path, nil) }

// post sends form with the CSRF token the site gave the browser (a page is fetched first when
// it has none yet).
func (b *browser) post(path string, form url.Values) resp {
	b.t.Helper()
	if b.cookies["pf_csrf"] == "" {
		b.get("/console/signin")
	}
	if form == nil {
		form = url.Values{}
	}
	form.Set("csrf", b.cookies["pf_csrf"])
	if sid := b.cookies[sessionCookie]; sid != "" { // a signed-in browser's pages carry its session's token
		form.Set("csrf", web.FormToken(sessionCookie, sid))
	}
	return b.do(http.MethodPost, path, form)
}

// signIn signs the browser in as username and checks it worked.
func (b *browser) signIn(username, password string) {
	b.t.Helper()
	r := b.post("/console/signin", url.Values{"username": {username}, "password": {password}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/console" {
		b.t.Fatalf("sign in as %s: %d %s %s", username, r.Status, r.Header.Get("Location"), r.Body)
	}
}

// expect checks a response's status and content.
func expect(t *testing.T, r resp, status int, want []string, not ...string) {
	t.Helper()
	apitest.Expect{Status: status, Contains: want, Excludes: not}.Check(t, r)
}

// database is the demo database labelled label, as the demo owner sees it.
func (e *env) database(t *testing.T, label string) cloudstore.Database {
	t.Helper()
	owner, err := e.cloud.Authenticate(e.token(t, "demo"))
	if err != nil {
		t.Fatal(err)
	}
	list, err := e.cloud.VisibleDatabases(owner.User, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range list {
		if d.Label == label {
			return d
		}
	}
	t.Fatalf("no database %s", label)
	return cloudstore.Database{}
}

// token signs username in through the domain (not a browser) for a token to read with.
func (e *env) token(t *testing.T, username string) string {
	t.Helper()
	tok, err := e.cloud.SignIn(username, username+"-password", "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
