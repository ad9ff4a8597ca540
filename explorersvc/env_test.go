package explorersvc

import (
	"bytes"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/fixtures/explorergen"
	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The domain's test environment: a service on a new data file of its own with an in-memory
// index (NewMemory), a fixed clock, and a job runner holding the directory watcher when one is
// asked for (as serve registers it).

// testNow is where every env's clock starts.
var testNow = time.Date(2026, 11, 22, 12, 30, 0, 0, time.UTC)

// envOptions adjust an env.
type envOptions struct {
	spdxDir string // followed by a job of jobs every every
	every   time.Duration
}

// env is one explorer domain on its own data file.
type env struct {
	db   *store.DB
	im   *Service
	clk  *clock.Fixed
	jobs *jobs.Runner
	logs *logBuffer
	log  *slog.Logger
}

func newEnv(t testing.TB, o envOptions) *env {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "explorer.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := &env{db: db, clk: clock.NewFixed(testNow), jobs: &jobs.Runner{}, logs: &logBuffer{}}
	e.log = slog.New(slog.NewTextHandler(e.logs, nil))
	e.im = NewMemory(db, e.clk.Now, e.log)
	t.Cleanup(func() { e.im.Index.Close() })
	e.im.RegisterJobs(e.jobs, o.spdxDir, o.every)
	return e
}

// logBuffer collects an env's log lines; safe for the service's and the test's goroutines.
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

// The searches, as the API calls them; a search that fails fails the test.

// packages is the package search for q.
func (e *env) packages(t testing.TB, q string) []Entry {
	t.Helper()
	found, err := e.im.SearchPackages(q, true)
	if err != nil {
		t.Fatalf("SearchPackages(%q): %v", q, err)
	}
	return found.Entries
}

// all is the package search without a term: every package.
func (e *env) all(t testing.TB) []Entry {
	t.Helper()
	found, err := e.im.SearchPackages("", false)
	if err != nil {
		t.Fatalf("SearchPackages(): %v", err)
	}
	return found.Entries
}

// files is the file search for q.
func (e *env) files(t testing.TB, q string) []FileResult {
	t.Helper()
	found, err := e.im.SearchFiles(q)
	if err != nil {
		t.Fatalf("SearchFiles(%q): %v", q, err)
	}
	return found.Results
}

// vcs is the git search for q.
func (e *env) vcs(t testing.TB, q string) []Entry {
	t.Helper()
	found, err := e.im.SearchVCS(q)
	if err != nil {
		t.Fatalf("SearchVCS(%q): %v", q, err)
	}
	return found.Entries
}

// wantCount: a search found n packages (or file results).
func wantCount[T any](t testing.TB, what string, got []T, n int) {
	t.Helper()
	if len(got) != n {
		t.Errorf("%s: %d found, want %d", what, len(got), n)
	}
}

// shown is what the API shows of an entry, under the API's field names.
func shown(e Entry) map[string]string {
	return map[string]string{
		"package_name": e.Package.Name, "arch": e.Package.Arch, "filename": e.Package.Filename,
		"vcs_url": e.Package.VCSURL, "vcs_org": e.Package.VCSOrg, "tracking_branch": e.Package.TrackingBranch,
		"commit_hash": e.Package.CommitHash, "disturl": e.Package.DistURL,
		"product.name": e.Product.Name, "product.version": e.Product.Version, "product.architecture": e.Product.Arch,
		"product.build_number": e.Product.BuildNumber, "product.full_name": e.Product.FullName,
	}
}

// hasEntry: some entry of list shows every field of want as want has it.
func hasEntry(list []Entry, want map[string]string) bool {
	for _, e := range list {
		got, all := shown(e), true
		for k, v := range want {
			if got[k] != v {
				all = false
			}
		}
		if all {
			return true
		}
	}
	return false
}

// productCount counts the packages of product full in a search's entries.
func productCount(list []Entry, full string) int {
	n := 0
	for _, p := range list {
		if p.Product.FullName == full {
			n++
		}
	}
	return n
}

// Generated products for the import and watch tests (explorergen, small and fast).

// testProduct is the full name of the generated product the import tests replace back and
// forth.
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
	return filepath.Join(dir, p.Name, p.Name+SBOMSuffix)
}

// productPackages counts the packages of product full in the store (-1: not imported).
func productPackages(t testing.TB, db *store.DB, full string) int {
	t.Helper()
	n := -1
	db.View(func(tx kv.Tx) error {
		if p, err := explorerstore.GetProduct(tx, full); err == nil {
			n = p.Packages
		}
		return nil
	})
	return n
}

// generation is the store's explorer generation.
func generation(db *store.DB) uint64 {
	var g uint64
	db.View(func(tx kv.Tx) error { g = explorerstore.Generation(tx); return nil })
	return g
}

// entryNames lists the entries' package names, for messages.
func entryNames(list []Entry) string {
	var l []string
	for _, e := range list {
		l = append(l, e.Package.Name)
	}
	return strings.Join(l, " ")
}
