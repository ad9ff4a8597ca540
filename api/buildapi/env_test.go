package buildapi

import (
	"encoding/base64"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/internal/testkit/demofile"
	"github.com/pocketforge/pocketforge/store"
)

const adminPassword = "admin-test-password"

// buildCreds are the credentials the build API's tests sign in with.
var buildCreds = demofile.Credentials{Token: "build-test-token", AdminPassword: adminPassword}

// env is the build API on its own temp data file seeded with the demo world.
type env struct {
	app *fiber.App
	db  *store.DB
	clk *clock.Fixed
}

func newEnv(t testing.TB) *env { t.Helper(); return newEnvWith(t, nil) }

// newEnvWith is newEnv with the build API's Deps adjusted by tune (limits, jobs).
func newEnvWith(t testing.TB, tune func(*Deps)) *env {
	t.Helper()
	clk := clock.NewFixed(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	db := demofile.Open(t, "build-demo", clk.Now(), buildCreds)
	app := fiber.New(fiber.Config{ErrorHandler: RenderError})
	d := Deps{Store: db, Clock: clk, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if tune != nil {
		tune(&d)
	}
	if d.Build == nil {
		d.Build = domains.NewBuild(db, clk, d.Log, domains.BuildOptions{})
	}
	Bind(app, d)
	return &env{app: app, db: db, clk: clk}
}

// TestMain removes the seeded template data files after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	apitest.RemoveTemplates()
	os.Exit(code)
}

// basic is an Authorization header value for login and password.
func basic(login, password string) map[string]string {
	return map[string]string{"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte(login+":"+password))}
}

// scenario is one named request with what must come back.
type scenario struct {
	name string
	apitest.Request
	apitest.Expect
}

func (e *env) run(t *testing.T, list []scenario) {
	t.Helper()
	for _, s := range list {
		t.Run(s.name, func(t *testing.T) {
			got := apitest.Do(t, e.app, s.Request)
			s.Expect.Check(t, got)
			if got.Header.Get("X-Opensuse-APIVersion") != APIVersion {
				t.Errorf("X-Opensuse-APIVersion %q", got.Header.Get("X-Opensuse-APIVersion"))
			}
		})
	}
}
