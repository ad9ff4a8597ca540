package explorerapi

import (
	"log/slog"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/internal/testkit/builtdemo"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// The build-results environment: the demo world with its farm run until quiet (every demo
// package built, failed, excluded… as fixtures/build_farm.go lists), plus a project hidden by
// <access><disable/>, and the explorer following it through the build service in process,
// with the jobs serve runs: the build service's, then the explorer's.

// secretProject is the access-restricted project of the results environment.
const secretProject = builtdemo.SecretProject

// demoBuildTime is how long a simulated build takes in these tests, as fixtures' own farm
// tests use.
const demoBuildTime = builtdemo.BuildTime

// builtDataFile copies the template: the demo world, built, with secretProject.
func builtDataFile(t testing.TB) string {
	return apitest.DataFile(t, "explorer-demo-built", func(path string) error {
		if err := seedDataFile(path, demoData); err != nil {
			return err
		}
		db, err := store.Open(path, store.Options{Durability: store.NoSync})
		if err != nil {
			return err
		}
		defer db.Close()
		if err := builtdemo.PutSecretProject(db); err != nil {
			return err
		}
		_, _, err = builtdemo.RunFarm(db, testNow)
		return err
	})
}

// resultsEnv is an explorer over the built demo world with its build service as the backend.
type resultsEnv struct {
	app   *fiber.App
	db    *store.DB
	clk   *clock.Fixed
	build *domains.Build
	im    *explorersvc.Service
	jobs  *jobs.Runner
	log   *slog.Logger
}

// newResultsEnv follows the projects follow picks (none: every one).
func newResultsEnv(t testing.TB, follow ...string) *resultsEnv {
	t.Helper()
	db, err := store.Open(builtDataFile(t), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := &resultsEnv{db: db, clk: clock.NewFixed(testNow.Add(time.Hour)), jobs: &jobs.Runner{},
		log: slog.New(slog.DiscardHandler)}
	e.build = domains.NewBuild(db, e.clk, e.log, domains.BuildOptions{Farm: farm.Options{Workers: 4, BuildTime: demoBuildTime}})
	e.im = explorersvc.NewMemory(db, e.clk.Now, e.log)
	t.Cleanup(func() { e.im.Index.Close() })
	backend := e.build.Backend(db, buildstore.Person{}, func() string { return "http://forge.test/" })
	if err := e.im.UseBackend(backend, follow); err != nil {
		t.Fatal(err)
	}
	e.build.RegisterJobs(e.jobs)
	e.im.RegisterJobs(e.jobs, "", 0)
	e.app = fiber.New(fiber.Config{ErrorHandler: RenderError, DisableStartupMessage: true})
	Bind(e.app, Deps{Explorer: e.im, Limiter: ratelimit.New(e.clk.Now), ExternalURL: func() string { return "http://forge.test/" }})
	return e
}

// tick runs the jobs once, as serve's runner does every second.
func (e *resultsEnv) tick() { e.jobs.RunOnce(e.clk.Now(), e.log) }

// get sends a GET.
func (e *resultsEnv) get(t testing.TB, path string) apitest.Response {
	t.Helper()
	return apitest.Do(t, e.app, apitest.Request{Path: path})
}
