package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestProductLists: the demo product (Pocket:1.0/000productcompose's pocket.productcompose) in
// view=productlist, verboseproductlist (with expand through a project link) and a package's
// view=products, filtered by product=.
func TestProductLists(t *testing.T) {
	e := newEnv(t)
	verbose := `<product name="Pocket" version="1.0" baseversion="1" patchlevel="0" release="0" cpe="cpe:/o:pocket:pocket:1.0" originproject="Pocket:1.0" originpackage="000productcompose" mtime="`
	e.run(t, []scenario{
		{"productlist", req("GET", "/source/Pocket:1.0?view=productlist", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<productlist count="1">`, `<product name="Pocket" originproject="Pocket:1.0" originpackage="000productcompose"></product>`}}},
		{"verboseproductlist", req("GET", "/source/Pocket:1.0?view=verboseproductlist", asBob, ""), want(200, `<productlist count="1">`, verbose)},
		{"a project without products", req("GET", "/source/devel:tools?view=productlist", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<productlist count="0">`}, Excludes: []string{"<product "}}},
		{"a linking project", req("PUT", "/source/home:alice:pl/_meta", asAlice,
			`<project name="home:alice:pl"><title/><description/><link project="Pocket:1.0"/></project>`), ok},
		{"unexpanded: none of its own", req("GET", "/source/home:alice:pl?view=productlist", asBob, ""), want(200, `<productlist count="0">`)},
		{"expanded: the linked project's", req("GET", "/source/home:alice:pl?view=verboseproductlist&expand=1", asBob, ""), want(200, `<productlist count="1">`, verbose)},
		{"view=products", req("GET", "/source/Pocket:1.0/000productcompose?view=products", asBob, ""), want(200, `<productlist count="1">`, verbose)},
		{"view=products&product=", req("GET", "/source/Pocket:1.0/000productcompose?view=products&product=Pocket", asBob, ""), want(200, `<productlist count="1">`)},
		{"another product", req("GET", "/source/Pocket:1.0/000productcompose?view=products&product=Nope", asBob, ""), want(200, `<productlist count="0">`)},
		{"a package without products", req("GET", "/source/devel:tools/pocket-cli?view=products", asBob, ""), want(200, `<productlist count="0">`)},
		{"a missing package", req("GET", "/source/devel:tools/nope?view=products", asBob, ""), code(404, "unknown_package")},
		{"a missing project", req("GET", "/source/nope?view=productlist", asBob, ""), code(404, "unknown_project")},
	})
}
