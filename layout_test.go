package main

import (
	"errors"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDomainsStayBelowHTTP holds the layering of DESIGN.md: the domains (buildsvc, cloudsvc,
// explorersvc, appliancesvc), the store and everything they use import neither fiber nor any package under
// api/, so a rule can never again need an HTTP context; and fixtures reach the data through the
// domains and the store only.
func TestDomainsStayBelowHTTP(t *testing.T) {
	const module = "github.com/pocketforge/pocketforge"
	roots := []string{"buildsvc", "buildsvc/farm", "buildsvc/requests", "buildsvc/search", "buildsvc/maintenance", "buildsvc/statistics", "buildsvc/social", "buildsvc/attributes", "buildsvc/metadoc", "cloudsvc", "explorersvc", "explorersvc/remote", "appliancesvc", "fault", "internal/jobs", "fixtures",
		"store", "store/buildstore", "store/cloudstore", "store/explorerstore", "store/appliance", "store/outbox"}
	for _, root := range roots {
		seen := map[string]bool{}
		var walk func(path, via string)
		walk = func(path, via string) {
			if seen[path] {
				return
			}
			seen[path] = true
			if strings.HasPrefix(path, "github.com/gofiber/") || strings.HasPrefix(path, module+"/api") {
				t.Errorf("%s imports %s (through %s)", root, path, via)
				return
			}
			if !strings.HasPrefix(path, module) {
				return
			}
			pkg, err := build.Import(path, ".", 0)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, imp := range pkg.Imports {
				walk(imp, path)
			}
		}
		walk(module+"/"+root, root)
	}
}

// TestDomainsStayApart: no domain imports another; one reading another declares an interface
// that explorersvc/buildlink (or domains) satisfies, so each domain's rules stay its own.
func TestDomainsStayApart(t *testing.T) {
	const module = "github.com/pocketforge/pocketforge/"
	domains := []string{"buildsvc", "cloudsvc", "explorersvc", "appliancesvc"}
	for _, d := range domains {
		pkg, err := build.Import(module+d, ".", 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range pkg.Imports {
			for _, other := range domains {
				if other != d && (imp == module+other || strings.HasPrefix(imp, module+other+"/")) {
					t.Errorf("%s imports %s", d, imp)
				}
			}
		}
	}
}

// TestLeavesImportNothingOfOurs: the pure packages DESIGN.md names — the badge drawing, the
// search index and xpath compiler, the values validator and the clock — and the sqldb wire
// engine import no package of
// this module, so each can be tested and reasoned about alone. The shared build documents
// (builddoc/*) are leaves too; the result list takes its state's hash from the farm's
// resolver, the one home of that rule.
func TestLeavesImportNothingOfOurs(t *testing.T) {
	const module = "github.com/pocketforge/pocketforge"
	allowed := map[string]string{"builddoc/resultlist": module + "/packaging/resolve"}
	for _, leaf := range []string{"badges", "search/textindex", "search/xpath", "values", "clock", "packaging/product", "spdx", "sqlengine",
		"builddoc/resultlist", "builddoc/binarycoll"} {
		pkg, err := build.Import(module+"/"+leaf, ".", 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range pkg.Imports {
			if (imp == module || strings.HasPrefix(imp, module+"/")) && imp != allowed[leaf] {
				t.Errorf("%s imports %s", leaf, imp)
			}
		}
	}
}

// TestBuildCoreStandsAlone (issue 35): the build service's core (buildsvc) imports none of the
// packages built on it — the farm, requests and reviews, the searches — so they depend on the
// core and never the other way round; of its own subpackages it uses only the document
// libraries.
func TestBuildCoreStandsAlone(t *testing.T) {
	const module = "github.com/pocketforge/pocketforge/"
	libraries := map[string]bool{module + "buildsvc/metadoc": true, module + "buildsvc/requestdoc": true, module + "buildsvc/xmlindent": true}
	pkg, err := build.Import(module+"buildsvc", ".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports {
		if strings.HasPrefix(imp, module+"buildsvc/") && !libraries[imp] {
			t.Errorf("buildsvc imports %s, which is built on it", imp)
		}
	}
}

// floors are the house every package lives in (ARCHITECTURE.md draws it): an import may run
// along a floor or down, never up. The ground floor is the libraries, which know nothing of the
// APIs; then the store; the domains; the wiring that builds them and the demo world loaded
// through them; the HTTP APIs and the web pages; main at the top. The one domain error, fault,
// lives with the store whose sentinels are its kinds. A package takes the floor of
// the longest prefix naming it. Test support (internal/testkit) is outside the house: only
// tests import it.
var floors = []struct {
	prefix string
	floor  int
}{
	{"clock", 0}, {"config", 0}, {"search/", 0}, {"spdx", 0}, {"values", 0}, {"badges", 0},
	{"sqlengine", 0}, {"packaging/", 0}, {"builddoc/", 0}, {"apidocs", 0}, {"internal/jobs", 0},
	{"internal/ratelimit", 0}, {"internal/signkey", 0}, {"internal/textdiff", 0}, {"internal/spdxcheck", 0},
	{"buildsvc/xmlindent", 0},
	{"store", 1}, {"fault", 1},
	{"buildsvc", 2}, {"cloudsvc", 2}, {"explorersvc", 2}, {"appliancesvc", 2},
	{"domains", 3}, {"fixtures", 3},
	{"api", 4}, {"web", 4},
}

// floorOf is the floor of the package at rel (the path below the module; "" is main).
func floorOf(rel string) (int, bool) {
	if rel == "" || rel == "e2e" {
		return 5, true
	}
	best, floor := -1, 0
	for _, f := range floors {
		if (rel == strings.TrimSuffix(f.prefix, "/") || strings.HasPrefix(rel, strings.TrimSuffix(f.prefix, "/")+"/")) && len(f.prefix) > best {
			best, floor = len(f.prefix), f.floor
		}
	}
	return floor, best >= 0
}

// TestNoImportRunsUpAFloor (issue 35): every package of the module has a floor, and none of
// its non-test files imports a package on a floor above it; nothing but tests imports the test
// support.
func TestNoImportRunsUpAFloor(t *testing.T) {
	const module = "github.com/pocketforge/pocketforge"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		rel := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		if strings.HasPrefix(rel, "internal/testkit") {
			continue
		}
		from, ok := floorOf(rel)
		if !ok {
			t.Errorf("%s has no floor: give it one in layout_test.go's floors", rel)
			continue
		}
		for _, imp := range fields[1:] {
			if imp != module && !strings.HasPrefix(imp, module+"/") {
				continue
			}
			irel := strings.TrimPrefix(strings.TrimPrefix(imp, module), "/")
			if strings.HasPrefix(irel, "internal/testkit") {
				t.Errorf("%s imports the test support %s outside a test", rel, irel)
				continue
			}
			if to, _ := floorOf(irel); to > from {
				t.Errorf("%s (floor %d) imports %s (floor %d): an import runs up a floor", rel, from, irel, to)
			}
		}
	}
}

// packageDirs lists the directories under root (root included) that hold a Go package, with
// what the package's non-test files import; testdata and hidden directories are skipped.
func packageDirs(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		var none *build.NoGoError
		if errors.As(err, &none) {
			return nil
		}
		if err != nil {
			return err
		}
		out[filepath.ToSlash(path)] = pkg.Imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no package under %s", root)
	}
	return out
}

// TestStoreKeepsRecordsOnly (issue 35): the store keeps records, keys, indexes and codecs; what
// they mean — link expansion, issue scanning, whether a signing key can sign, what a spec file
// says — is the domains', which sit above it. So no package under store/ imports a package of
// this module outside store/, but for the leaf libraries listed here, each for the one store
// package that needs it and why. A domain library (internal/textdiff, packaging/*, buildsvc
// and its packages, …) never belongs on the list: the code that needs it belongs in the
// domain. (Test files may use the test helpers of internal/.)
func TestStoreKeepsRecordsOnly(t *testing.T) {
	const module = "github.com/pocketforge/pocketforge/"
	allowed := map[string]string{ // package of ours outside store/ → the store package that may import it
		// The SPDX document and rpm-md model (spdx.Product, Package, RPM) that explorer
		// records are made from, as the import hands it over: a leaf format library that
		// imports nothing of ours (TestLeavesImportNothingOfOurs) and decides nothing.
		"spdx": "store/explorerstore",
	}
	for dir, imports := range packageDirs(t, "store") {
		for _, imp := range imports {
			rel, ours := strings.CutPrefix(imp, module)
			if !ours || rel == "store" || strings.HasPrefix(rel, "store/") || allowed[rel] == dir {
				continue
			}
			t.Errorf("%s imports %s: the store keeps records, keys, indexes and codecs; the rule that needs %s belongs in its domain", dir, imp, rel)
		}
	}
}

// TestHandlersOpenNoTransaction (issue 35): handlers and pages call a domain function and
// render its answer; the domains open the transactions. So no package under api/ or web/
// imports the storage seam (store/kv) or an engine beneath it (test files may, to set data up).
func TestHandlersOpenNoTransaction(t *testing.T) {
	for _, root := range []string{"api", "web"} {
		for dir, imports := range packageDirs(t, root) {
			for _, imp := range imports {
				if isBbolt(imp) || strings.HasSuffix(imp, "/store/kv") || strings.Contains(imp, "/store/kv/") {
					t.Errorf("%s imports %s: a handler or page calls a domain, which opens the transaction", dir, imp)
				}
			}
		}
	}
}

// TestBboltOnlyInItsEngine (issue 36): the domains and the store work through the storage seam
// (store/kv), so the same code runs over bbolt and PostgreSQL; bbolt is imported only by its
// engine, store/kv/boltkv. Test files may import it only to time the raw layer beneath the seam
// (files named *bench_test.go), as the benchmarks' rule asks.
func TestBboltOnlyInItsEngine(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if !strings.HasSuffix(path, ".go") || dir == "store/kv/boltkv" || strings.HasSuffix(path, "bench_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); isBbolt(p) {
				t.Errorf("%s imports %s: only store/kv/boltkv may (work through store/kv)", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func isBbolt(imp string) bool {
	return imp == "go.etcd.io/bbolt" || strings.HasPrefix(imp, "go.etcd.io/bbolt/")
}
