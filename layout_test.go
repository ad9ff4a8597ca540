package main

import (
	"go/build"
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
// that internal/buildlink (or the root package) satisfies, so each domain's rules stay its own.
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
	for _, leaf := range []string{"badges", "search", "search/xpath", "values", "clock", "packaging/product", "spdx", "sqlengine",
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
