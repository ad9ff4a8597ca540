package explorerweb

import (
	"errors"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/internal/testkit/builtdemo"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/web"
)

// The pages' test environment, the minimal copy of api/explorerapi's results environment: the
// demo world (its explorer products, git host and build projects) with the farm run until
// quiet, so binaries are published and forks have results, and the explorer following the
// build service in process, as serve wires it. Errors become web's error page with the status
// the app's table gives the kinds these pages return.

var testNow = time.Date(2026, 11, 22, 12, 30, 0, 0, time.UTC)

// demoBuildTime is how long a simulated build takes, as the farm's own tests use.
const demoBuildTime = 8 * time.Second

func TestMain(m *testing.M) {
	code := m.Run()
	apitest.RemoveTemplates()
	os.Exit(code)
}

// builtDataFile copies the template: the demo world, built, with the explorer following the
// farm (builtdemo).
func builtDataFile(t testing.TB) string {
	return apitest.DataFile(t, "explorerweb-demo-built", func(path string) error {
		db, err := store.Open(path, store.Options{Durability: store.NoSync})
		if err != nil {
			return err
		}
		defer db.Close()
		return builtdemo.Load(db, testNow)
	})
}

// env is the explorer's pages over the built demo world.
type env struct {
	app *fiber.App
	db  *store.DB
	im  *explorersvc.Service
}

func newEnv(t testing.TB) *env {
	t.Helper()
	db, err := store.Open(builtDataFile(t), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clk := clock.NewFixed(testNow.Add(time.Hour))
	log := slog.New(slog.DiscardHandler)
	build := domains.NewBuild(db, clk, log, domains.BuildOptions{Farm: farm.Options{Workers: 4, BuildTime: demoBuildTime}})
	im := explorersvc.NewMemory(db, clk.Now, log)
	t.Cleanup(func() { im.Index.Close() })
	im.Builds = build.Builds(buildstore.Person{})
	base := func() string { return "http://forge.test/" }
	if err := im.UseBackend(build.Backend(db, buildstore.Person{}, base), nil); err != nil {
		t.Fatal(err)
	}
	app := fiber.New(fiber.Config{ErrorHandler: errorPage, DisableStartupMessage: true})
	Bind(app, Deps{Site: &web.Site{ExternalURL: base}, Explorer: im})
	return &env{app: app, db: db, im: im}
}

// errorPage renders err as the app's error handler does, for the kinds these pages return.
func errorPage(c *fiber.Ctx, err error) error {
	status, reason := http.StatusInternalServerError, http.StatusText(http.StatusInternalServerError)
	var fe *fiber.Error
	var f *fault.Error
	switch {
	case errors.As(err, &fe):
		status, reason = fe.Code, http.StatusText(fe.Code)
	case errors.As(err, &f) && errors.Is(err, store.ErrNotFound):
		status, reason = http.StatusNotFound, f.Msg
	case errors.As(err, &f) && errors.Is(err, store.ErrInvalid):
		status, reason = http.StatusBadRequest, f.Msg
	}
	return web.ErrorPage(c, status, reason)
}

// page is one request to a page and what must come back.
type page struct {
	name, path string
	status     int
	contains   []string
	excludes   []string
}

// run sends each page's request and checks the answer, its size and its headers.
func (e *env) run(t *testing.T, list []page) {
	t.Helper()
	for _, p := range list {
		t.Run(p.name, func(t *testing.T) {
			got := apitest.Do(t, e.app, apitest.Request{Path: p.path})
			apitest.Expect{Status: p.status, Contains: p.contains, Excludes: p.excludes}.Check(t, got)
			if ct := got.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
				t.Errorf("Content-Type %q", ct)
			}
			if n := len(got.Body); n >= 100_000 {
				t.Errorf("page is %d bytes, over 100 KB", n)
			}
		})
	}
}
