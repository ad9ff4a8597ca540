package buildweb

import (
	"errors"
	"log/slog"
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
	"github.com/pocketforge/pocketforge/fixtures"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/internal/testkit/builtdemo"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/web"
)

// The test world (as api/explorerapi's results environment builds it): the demo world with its
// farm run until quiet, plus a project hidden by <access><disable/>, and the explorer
// following every project through the build service in process.

// secretProject is the access-restricted project.
const secretProject = builtdemo.SecretProject

// testNow is where the clocks start; demoBuildTime is how long a simulated build takes.
var testNow = time.Date(2026, 11, 22, 12, 30, 0, 0, time.UTC)

const demoBuildTime = builtdemo.BuildTime

func TestMain(m *testing.M) {
	code := m.Run()
	apitest.RemoveTemplates()
	os.Exit(code)
}

// builtDataFile copies the template: the demo world, built, with secretProject.
func builtDataFile(t testing.TB) string {
	return apitest.DataFile(t, "buildweb-demo-built", func(path string) error {
		db, err := store.Open(path, store.Options{Durability: store.NoSync})
		if err != nil {
			return err
		}
		defer db.Close()
		if _, err := fixtures.Ensure(db, false, testNow); err != nil {
			return err
		}
		if err := builtdemo.PutSecretProject(db); err != nil {
			return err
		}
		_, _, err = builtdemo.RunFarm(db, testNow)
		return err
	})
}

// env is the build pages over the built demo world.
type env struct {
	app   *fiber.App
	db    *store.DB
	clk   *clock.Fixed
	build *domains.Build
	im    *explorersvc.Service
}

func newEnv(t testing.TB) *env {
	t.Helper()
	db, err := store.Open(builtDataFile(t), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	log := slog.New(slog.DiscardHandler)
	e := &env{db: db, clk: clock.NewFixed(testNow.Add(time.Hour))}
	e.build = domains.NewBuild(db, e.clk, log, domains.BuildOptions{Farm: farm.Options{Workers: 4, BuildTime: demoBuildTime}})
	e.im = explorersvc.NewMemory(db, e.clk.Now, log)
	t.Cleanup(func() { e.im.Index.Close() })
	base := func() string { return "http://forge.test/" }
	if err := e.im.UseBackend(e.build.Backend(db, buildstore.Person{}, base), nil); err != nil {
		t.Fatal(err)
	}
	e.app = fiber.New(fiber.Config{ErrorHandler: errorPage, DisableStartupMessage: true, CaseSensitive: true})
	web.Bind(e.app, web.Deps{Site: &web.Site{ExternalURL: base}})
	Bind(e.app, Deps{Site: &web.Site{ExternalURL: base}, Build: e.build, Explorer: e.im})
	return e
}

// errorPage is the app's error handler reduced to what these pages return: a domain's fault
// by its kind, fiber's errors by their code.
func errorPage(c *fiber.Ctx, err error) error {
	status := fiber.StatusInternalServerError
	var fe *fiber.Error
	switch {
	case errors.As(err, &fe):
		status = fe.Code
	case errors.Is(err, store.ErrNotFound):
		status = fiber.StatusNotFound
	case errors.Is(err, store.ErrForbidden):
		status = fiber.StatusForbidden
	case errors.Is(err, store.ErrInvalid):
		status = fiber.StatusBadRequest
	}
	msg := err.Error()
	var f *fault.Error
	if errors.As(err, &f) {
		msg = f.Msg
	}
	return web.ErrorPage(c, status, msg)
}

// get sends a GET and checks the status; pages must stay under 100 KB.
func (e *env) get(t testing.TB, path string, status int) apitest.Response {
	t.Helper()
	r := apitest.Do(t, e.app, apitest.Request{Path: path})
	if r.Status != status {
		t.Fatalf("GET %s: status %d, want %d; body %s", path, r.Status, status, r.Body)
	}
	if len(r.Body) >= 100<<10 {
		t.Errorf("GET %s: %d bytes, over the 100 KB a page may weigh", path, len(r.Body))
	}
	return r
}

// has checks that body holds every want and none of not.
func has(t testing.TB, path, body string, want []string, not ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("GET %s lacks %q", path, w)
		}
	}
	for _, n := range not {
		if strings.Contains(body, n) {
			t.Errorf("GET %s must not contain %q", path, n)
		}
	}
}
