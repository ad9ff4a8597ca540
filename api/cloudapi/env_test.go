package cloudapi

import (
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/internal/testkit/demofile"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Demo-world credentials the tests act with (fixtures/data/cloud.json, README "Demo").
const (
	demoToken  = "test-bootstrap-token" // the bootstrap token: the demo owner's all-scopes PAT
	carolToken = "pfdemo-carol-0000000000000000000000000000000000000000000000000000"
	daveToken  = "pfdemo-dave-00000000000000000000000000000000000000000000000000000"
	cliClient  = "5c0c4e7f1d2a3b4c5d6e"
	cliSecret  = "pocket-cli-demo-secret"
)

var start = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// env is the cloud API on its own temp data file seeded with the demo world.
type env struct {
	app   *fiber.App
	db    *store.DB
	clock *clock.Fixed
	jobs  *jobs.Runner // the API's background jobs; tests run them with runJobs
	cloud *cloudsvc.Service
	limit *ratelimit.Limiter // the API's limiter
}

// runJobs runs every background job once at the env's clock (as the appliance does each second).
func (e *env) runJobs() { e.jobs.RunOnce(e.clock.Now(), nopLog()) }

func newEnv(t testing.TB, rateScale float64) *env {
	t.Helper()
	clk := clock.NewFixed(start)
	db := demofile.Open(t, "cloud-demo", clk.Now(), cloudCreds)
	app := fiber.New(fiber.Config{ErrorHandler: RenderError, JSONEncoder: kit.MarshalJSON})
	log, url := slog.New(slog.NewTextHandler(io.Discard, nil)), func() string { return "http://pocketforge.test" }
	cloud := cloudsvc.New(db, clk, log, cloudsvc.Options{ExternalURL: url})
	jobs := &jobs.Runner{}
	cloud.RegisterJobs(jobs)
	limit := ratelimit.New(clk.Now)
	Bind(app, Deps{
		Store: db, Clock: clk, Log: log, ExternalURL: url, RateScale: rateScale,
		Limiter: limit, Cloud: cloud,
	})
	return &env{app: app, db: db, clock: clk, jobs: jobs, cloud: cloud, limit: limit}
}

// TestMain removes the seeded template data files after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	apitest.RemoveTemplates()
	os.Exit(code)
}

// req is one request of a scenario.
type req struct {
	method, path, body string
	token              string
	header             map[string]string
}

// resp is what came back.
type resp = apitest.Response

func (e *env) do(t testing.TB, r req) resp {
	t.Helper()
	return apitest.Do(t, e.app, apitest.Request{Method: r.method, Path: r.path, Body: r.body, Bearer: r.token, Header: r.header})
}

// scenario is one named request with what must come back.
type scenario struct {
	name string
	req
	status int
	want   []string          // substrings of the body
	exact  string            // the whole body
	header map[string]string // exact header values
	not    []string
}

func (e *env) run(t *testing.T, list []scenario) {
	t.Helper()
	for _, s := range list {
		t.Run(s.name, func(t *testing.T) {
			got := e.do(t, s.req)
			apitest.Expect{Status: s.status, Exact: s.exact, Contains: s.want, Excludes: s.not, Header: s.header}.Check(t, got)
			if got.Status >= 400 && strings.HasPrefix(s.path, "/v4") && got.Header.Get("Content-Type") != "application/json" {
				t.Errorf("error Content-Type %q, want exactly application/json", got.Header.Get("Content-Type"))
			}
		})
	}
}

// decode parses a JSON body into v.
func decode(t testing.TB, body string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
}

// token makes a PAT for username with the given scopes (and expiry, if any) straight in the store.
func (e *env) token(t testing.TB, username, scopes string, expiry *time.Time) string {
	t.Helper()
	var plain string
	err := e.db.Write(func(tx kv.Tx) error {
		u, err := cloudstore.GetUser(tx, username)
		if err != nil {
			return err
		}
		tok := cloudstore.Token{Kind: cloudstore.KindPAT, Username: u.Username, AccountID: u.AccountID, Label: "test", Scopes: scopes, Expiry: expiry}
		plain, err = cloudstore.IssueToken(tx, &tok, e.clock.Now())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return plain
}

func nopLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newLimiter(e *env) *ratelimit.Limiter { return ratelimit.New(e.clock.Now) }

// putTestCard stores a payment method straight in the store (tests that need one regardless of
// the billing fixtures).
func putTestCard(tx kv.Tx, pm cloudstore.PaymentMethod) error {
	if err := store.Put(tx, store.CloudPaymentMethods, store.Itob(pm.ID), pm); err != nil {
		return err
	}
	return store.IndexAdd(tx, store.CloudAccountPaymentMethods, store.Itob(pm.AccountID), store.Itob(pm.ID))
}

// cloudCreds are the appliance credentials of the cloud API's tests' data files.
var cloudCreds = demofile.Credentials{Token: demoToken, AdminPassword: "admin-pass"}

// seed writes the cloud tests' credentials and the demo world at now into a new data file.
func seed(path string, now time.Time) error { return demofile.Seed(path, now, cloudCreds) }
