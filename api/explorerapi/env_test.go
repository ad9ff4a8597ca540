package explorerapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/netip"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/admin"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/appliancesvc"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/fixtures"
	"github.com/pocketforge/pocketforge/fixtures/explorergen"
	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/internal/testkit/builtdemo"
	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/appliance"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The explorer's test environment: the explorer API and its operator routes as api.New mounts
// them (Bind on the root, BindAdmin behind /_appliance's token check), on a temp data
// file of its own with an in-memory index (explorersvc.NewMemory) and a fixed clock.

// testToken is the bootstrap token of every env.
const testToken = "explorer-test-token"

// testNow is where every env's clock starts: half past twelve, so the hour window of the rate
// limit has 30 minutes left (Retry-After 1800).
var testNow = time.Date(2026, 11, 22, 12, 30, 0, 0, time.UTC)

// TestMain removes the template data files (internal/apitest.DataFile) after the tests: the
// demo world (loading it takes seconds) and an empty file are made once per test binary.
func TestMain(m *testing.M) {
	code := m.Run()
	apitest.RemoveTemplates()
	os.Exit(code)
}

// The kinds of data file an env starts from.
const (
	demoData      = iota // the demo world as its first start leaves it (builtdemo)
	emptyData            // only the bootstrap token: a --no-fixtures appliance
	generatedData        // emptyData plus the generator's three large products (explorergen.Demo)
)

// seedDataFile writes a data file of kind at path: the bootstrap token, and then the demo
// world as its first start leaves it once the farm has built it and the explorer followed
// (builtdemo: the farm's Pocket 1.0 products beside the shipped 0.9), nothing more, or the
// generated products.
func seedDataFile(path string, kind int) error {
	db, err := store.Open(path, store.Options{Durability: store.NoSync})
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Exclusive(func(tx kv.Tx) error {
		_, err := appliance.EnsureCredentials(tx, testToken, "explorer-test-password")
		return err
	}); err != nil {
		return err
	}
	if kind == demoData {
		return builtdemo.Load(db, testNow)
	}
	if _, err = fixtures.Ensure(db, true, testNow); err != nil || kind == emptyData {
		return err
	}
	return importGenerated(db)
}

// importGenerated imports the generator's three products (about 1,300 RPMs and 13,000 files
// each) into db's store: the search tests' own data, large and varied where the demo world's
// 36 packages a product are not — a file two packages of one product ship (python3), names
// with regex characters (c++), git references to repositories outside the pool on other
// hosts with SHA-1 commits. The index is rebuilt from the store when an env opens it.
func importGenerated(db *store.DB) error {
	return db.Write(func(tx kv.Tx) error {
		for _, p := range explorergen.Demo() {
			prod, err := spdx.ParseDocument(bytes.NewReader(p.SPDX), p.Name+".spdx.json")
			if err != nil {
				return err
			}
			fsys := fstest.MapFS{}
			for name, data := range p.Repodata {
				fsys[strings.TrimPrefix(name, "/")] = &fstest.MapFile{Data: data}
			}
			rpms, err := spdx.ParseRepodata(fsys, "repodata")
			if err != nil {
				return err
			}
			prep, err := explorerstore.Prepare(prod, rpms)
			if err != nil {
				return err
			}
			if _, err := explorerstore.Import(tx, prep, "generated:"+p.Name, "", testNow); err != nil {
				return err
			}
		}
		return nil
	})
}

// dataFile copies a template of kind to a new temp file of t.
func dataFile(t testing.TB, kind int) string {
	t.Helper()
	name := [...]string{"explorer-demo", "explorer-empty", "explorer-generated"}[kind]
	return apitest.DataFile(t, name, func(path string) error { return seedDataFile(path, kind) })
}

// envOptions adjust an env.
type envOptions struct {
	empty bool // no demo world: only the bootstrap token
	// generated is no demo world but the generator's three large products (importGenerated).
	generated bool
	rate      config.Rate // the limit on /api; zero turns it off (the search tables send hundreds)
	trusted   []netip.Prefix
	spdxDir   string // followed by a job of jobs every spdxEvery
	every     time.Duration
}

// env is one explorer on its own data file.
type env struct {
	app  *fiber.App
	db   *store.DB
	im   *explorersvc.Service
	clk  *clock.Fixed
	jobs *jobs.Runner
	logs *logBuffer
	log  *slog.Logger
}

func newEnv(t testing.TB, o envOptions) *env {
	t.Helper()
	kind := demoData
	switch {
	case o.empty:
		kind = emptyData
	case o.generated:
		kind = generatedData
	}
	db, err := store.Open(dataFile(t, kind), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := &env{db: db, clk: clock.NewFixed(testNow), jobs: &jobs.Runner{}, logs: &logBuffer{}}
	e.log = slog.New(slog.NewTextHandler(e.logs, nil))
	e.im = explorersvc.NewMemory(db, e.clk.Now, e.log)
	t.Cleanup(func() { e.im.Index.Close() })
	e.app = fiber.New(fiber.Config{ErrorHandler: RenderError, DisableStartupMessage: true})
	Bind(e.app, Deps{
		Explorer: e.im, Rate: o.rate, TrustedProxies: o.trusted,
		Limiter: ratelimit.New(e.clk.Now),
	})
	e.im.RegisterJobs(e.jobs, o.spdxDir, o.every)
	ready := kit.NewReadiness("store")
	ready.Set("store", true)
	admin.Bind(e.app.Group("/_appliance"), admin.Deps{
		Store: db, Ready: ready, Log: e.log, Appliance: appliancesvc.New(db, appliancesvc.Options{}),
		Mount: []func(fiber.Router){func(r fiber.Router) { BindAdmin(r, e.im) }},
	})
	return e
}

// logBuffer collects an env's log lines; safe for the explorer's and the test's goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// scenario is one named request with what must come back.
type scenario struct {
	name string
	apitest.Request
	apitest.Expect
	check  func(t *testing.T, body string) // more checks of the body, when set
	report bool                            // a 4xx that is an import report, not {"error"}
}

// run sends every scenario through the env's app; each answer must be JSON, and every 4xx the
// explorer's error shape.
func (e *env) run(t *testing.T, list []scenario) {
	t.Helper()
	for _, s := range list {
		t.Run(s.name, func(t *testing.T) {
			got := apitest.Do(t, e.app, s.Request)
			s.Expect.Check(t, got)
			if s.report {
				got.Status = 200 // JSON, but not the error shape
			}
			checkJSON(t, got)
			if s.check != nil && !t.Failed() {
				s.check(t, got.Body)
			}
		})
	}
}

// get sends a GET and checks the answer is JSON of the right shape.
func (e *env) get(t testing.TB, path string) apitest.Response {
	t.Helper()
	got := apitest.Do(t, e.app, apitest.Request{Path: path})
	checkJSON(t, got)
	return got
}

// checkJSON: every explorer answer with a body is application/json, and every 4xx is
// {"error": "<text>"} and nothing else.
func checkJSON(t testing.TB, got apitest.Response) {
	t.Helper()
	if got.Status == 204 {
		return
	}
	if ct := got.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json (status %d)", ct, got.Status)
	}
	if !json.Valid([]byte(got.Body)) {
		t.Fatalf("not JSON: %s", got.Body)
	}
	if got.Status >= 400 && got.Status < 500 {
		checkErrorShape(t, got.Body)
	}
}

// checkErrorShape: body is exactly {"error": "<non-empty text>"}.
func checkErrorShape(t testing.TB, body string) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("error body %s: %v", body, err)
	}
	msg, ok := m["error"].(string)
	if len(m) != 1 || !ok || msg == "" {
		t.Errorf(`error body %s, want {"error": "<text>"} only`, body)
	}
}

// The answers, decoded.
type productOut struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Arch        string `json:"architecture"`
	BuildNumber string `json:"build_number"`
	FullName    string `json:"full_name"`
}

type packageOut struct {
	PackageName    string     `json:"package_name"`
	Arch           string     `json:"arch"`
	Filename       string     `json:"filename"`
	VCSURL         string     `json:"vcs_url"`
	VCSOrg         string     `json:"vcs_org"`
	TrackingBranch string     `json:"tracking_branch"`
	CommitHash     string     `json:"commit_hash"`
	DistURL        string     `json:"disturl"`
	Product        productOut `json:"product"`
}

type packagesOut struct {
	SearchTerm *string      `json:"search_term"`
	Count      int          `json:"count"`
	Packages   []packageOut `json:"packages"`
}

type fileItemOut struct {
	PackageName    string `json:"package_name"`
	Arch           string `json:"arch"`
	VCSURL         string `json:"vcs_url"`
	VCSOrg         string `json:"vcs_org"`
	TrackingBranch string `json:"tracking_branch"`
	CommitHash     string `json:"commit_hash"`
	DistURL        string `json:"disturl"`
	ProductName    string `json:"product_name"`
	ProductVersion string `json:"product_version"`
	ProductBuild   string `json:"product_build"`
}

type fileResultOut struct {
	FilePath    string        `json:"file_path"`
	RPMFilename string        `json:"rpm_filename"`
	Packages    []fileItemOut `json:"packages"`
}

type filesOut struct {
	SearchTerm string          `json:"search_term"`
	Count      int             `json:"count"`
	Results    []fileResultOut `json:"results"`
	Under      bool            `json:"under"`
	Total      int             `json:"total"`
}

type vcsOut struct {
	SearchTerm   string       `json:"search_term"`
	SearchOrg    *string      `json:"search_org"`
	SearchRepo   *string      `json:"search_repo"`
	SearchBranch *string      `json:"search_branch"`
	SearchCommit *string      `json:"search_commit"`
	Count        int          `json:"count"`
	Packages     []packageOut `json:"packages"`
}

// decode unmarshals body into a new T, strictly (an unknown field fails).
func decode[T any](t testing.TB, body string) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decoding %.300s: %v", body, err)
	}
	return v
}

// storedPackage is one package as the store holds it, with its product: the oracle the search
// answers are checked against, read straight from the buckets.
type storedPackage struct {
	explorerstore.Package
	Product explorerstore.Product
}

// entry is what the package searches should answer for p.
func (p storedPackage) entry() packageOut {
	return packageOut{PackageName: p.Name, Arch: p.Arch, Filename: p.Filename, VCSURL: p.VCSURL, VCSOrg: p.VCSOrg,
		TrackingBranch: p.TrackingBranch, CommitHash: p.CommitHash, DistURL: p.DistURL,
		Product: productOut{Name: p.Product.Name, Version: p.Product.Version, Arch: p.Product.Arch,
			BuildNumber: p.Product.BuildNumber, FullName: p.Product.FullName}}
}

// allStored lists every package of every product in the store.
func allStored(t testing.TB, db *store.DB) []storedPackage {
	t.Helper()
	var out []storedPackage
	err := db.View(func(tx kv.Tx) error {
		products, err := explorerstore.Products(tx)
		if err != nil {
			return err
		}
		for _, p := range products {
			for seq := uint32(0); seq < uint32(p.Packages); seq++ {
				pk, err := explorerstore.GetPackage(tx, explorerstore.Ref{Product: p.FullName, Seq: seq})
				if err != nil {
					return err
				}
				out = append(out, storedPackage{Package: pk, Product: p})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// entryKey identifies a package entry in comparisons.
func entryKey(p packageOut) string {
	return p.Product.FullName + "|" + p.PackageName + "|" + p.Arch + "|" + p.Filename
}

// sameEntries reports how got differs from want, as multisets ("" when equal).
func sameEntries(got, want []packageOut) string {
	count := map[string]int{}
	full := map[string]packageOut{}
	for _, p := range want {
		count[entryKey(p)]++
		full[entryKey(p)] = p
	}
	var diff []string
	for _, p := range got {
		k := entryKey(p)
		if count[k] == 0 {
			diff = append(diff, "unexpected "+k)
			continue
		}
		if p != full[k] {
			diff = append(diff, fmt.Sprintf("%s: got %+v, want %+v", k, p, full[k]))
		}
		count[k]--
	}
	for k, n := range count {
		for ; n > 0; n-- {
			diff = append(diff, "missing "+k)
		}
	}
	sort.Strings(diff)
	if len(diff) > 10 {
		diff = append(diff[:10], fmt.Sprintf("… %d more", len(diff)-10))
	}
	return strings.Join(diff, "\n")
}

// checkSorted: entries come by package name (case-insensitively), then product, then arch.
func checkSorted(t testing.TB, list []packageOut) {
	t.Helper()
	ok := sort.SliceIsSorted(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if la, lb := strings.ToLower(a.PackageName), strings.ToLower(b.PackageName); la != lb {
			return la < lb
		}
		if a.Product.FullName != b.Product.FullName {
			return a.Product.FullName < b.Product.FullName
		}
		return a.Arch < b.Arch
	})
	if !ok {
		t.Errorf("packages are not sorted by name, product and arch")
	}
}

// Generated products for the import, admin and watch tests (explorergen, small and fast).

// testProduct is the full name of the generated product the import tests replace back and
// forth; Pocket-1.0-x86_64-Build7.1 collides with no demo product.
const testProduct = "Pocket-1.0-x86_64-Build7.1"

// generate makes one product named name with exactly rpms RPMs, from a small pool: rpms 45
// has busybox and coreutils, rpms 30 has neither (the pool is cut), so the two are versions
// of one product with different package sets.
func generate(name string, rpms int) explorergen.Product {
	ps := explorergen.Generate(explorergen.Options{Seed: 7, Packages: 20, FilesPerPackage: 3,
		Products: []explorergen.ProductSpec{{Name: name, Release: "1.0", Arch: "x86_64", Packages: rpms}}})
	return ps[0]
}

// writeProduct writes p under dir (dir/<name>/<name>.spdx.json and repodata/) and returns the
// SBOM's path.
func writeProduct(t testing.TB, dir string, p explorergen.Product) string {
	t.Helper()
	if err := explorergen.WriteDir(dir, []explorergen.Product{p}); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, p.Name, p.Name+explorersvc.SBOMSuffix)
}

// generation is the store's explorer generation.
func generation(db *store.DB) uint64 {
	var g uint64
	db.View(func(tx kv.Tx) error { g = explorerstore.Generation(tx); return nil })
	return g
}
