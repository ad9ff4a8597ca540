package explorerapi

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store/explorerstore"
)

// The operator's explorer routes under /_appliance, behind the bootstrap token.

type importOut struct {
	Imported []importedJSON `json:"imported"`
	Errors   []struct {
		File  string `json:"file"`
		Error string `json:"error"`
	} `json:"errors"`
}

type productsOut struct {
	Products []explorerstore.Product `json:"products"`
}

func importPath(p string) string { return "/_appliance/explorer/import?path=" + url.QueryEscape(p) }

func TestAdminImport(t *testing.T) {
	e := newEnv(t, envOptions{empty: true})
	dir := t.TempDir()
	writeProduct(t, dir, generate(testProduct, 45))
	mixed := t.TempDir() // one good product and one broken one
	writeProduct(t, mixed, generate("Pocket-1.0-x86_64-Build8.1", 30))
	broken := generate("Pocket-1.0-x86_64-Build9.1", 30)
	broken.SPDX = broken.SPDX[:len(broken.SPDX)/3]
	brokenPath := writeProduct(t, mixed, broken)
	onlyBroken := t.TempDir()
	writeProduct(t, onlyBroken, broken)
	sample, err := os.ReadFile(filepath.Join(samples, "SYNTHETIC_obs-product-shape.spdx.json"))
	if err != nil {
		t.Fatal(err)
	}
	noSBOM := t.TempDir()
	os.WriteFile(filepath.Join(noSBOM, "README"), []byte("nothing here"), 0o644)

	imported := func(want ...importedJSON) func(*testing.T, string) {
		return func(t *testing.T, body string) {
			got := decode[importOut](t, body)
			if len(got.Imported) != len(want) {
				t.Fatalf("imported %+v, want %+v", got.Imported, want)
			}
			for i, w := range want {
				g := got.Imported[i]
				if g.Product != w.Product || g.Packages != w.Packages || g.Skipped != w.Skipped || w.RPMs > 0 && (g.RPMs != w.RPMs || g.Files == 0) {
					t.Errorf("imported[%d] %+v, want %+v", i, g, w)
				}
			}
		}
	}
	e.run(t, []scenario{
		{name: "without a token", Request: apitest.Request{Method: "POST", Path: importPath(dir)},
			Expect: apitest.Expect{Status: 401, Header: map[string]string{"WWW-Authenticate": `Bearer realm="pocketforge appliance"`}}},
		{name: "with a wrong token", Request: apitest.Request{Method: "POST", Path: importPath(dir), Bearer: "wrong"},
			Expect: apitest.Expect{Status: 401, Exact: `{"error":"invalid bootstrap token"}`}},
		{name: "with Basic credentials", Request: apitest.Request{Method: "POST", Path: importPath(dir),
			Header: map[string]string{"Authorization": "Basic YWRtaW46eA=="}}, Expect: apitest.Expect{Status: 401}},
		{name: "a directory", Request: apitest.Request{Method: "POST", Path: importPath(dir), Bearer: testToken},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"errors":[]`}},
			check:  imported(importedJSON{Product: testProduct, Packages: 45, RPMs: 45})},
		{name: "the same directory again: unchanged", Request: apitest.Request{Method: "POST", Path: importPath(dir), Bearer: testToken},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"unchanged":true`}},
			check:  imported(importedJSON{Product: testProduct, Packages: 45, RPMs: 45, Skipped: true})},
		{name: "one file", Request: apitest.Request{Method: "POST", Path: importPath(filepath.Join(samples, "spdx-examples_example11_sbom.spdx.json")), Bearer: testToken},
			Expect: apitest.Expect{Status: 200}, check: imported(importedJSON{Product: "hello-server-src", Packages: 3})},
		{name: "a good and a broken product: the good one goes in, the broken one is named",
			Request: apitest.Request{Method: "POST", Path: importPath(mixed), Bearer: testToken},
			Expect:  apitest.Expect{Status: 200, Contains: []string{`"file":` + jsonString(brokenPath)}},
			check: func(t *testing.T, body string) {
				imported(importedJSON{Product: "Pocket-1.0-x86_64-Build8.1", Packages: 30, RPMs: 30})(t, body)
				got := decode[importOut](t, body)
				if len(got.Errors) != 1 || got.Errors[0].File != brokenPath || !strings.Contains(got.Errors[0].Error, brokenPath) {
					t.Errorf("errors %+v, want one naming %s", got.Errors, brokenPath)
				}
			}},
		// Not the {"error"} shape of every other 4xx: the report of a whole import, with nothing
		// imported (see the report of this suite).
		{name: "only broken products: a 400 naming them", Request: apitest.Request{Method: "POST", Path: importPath(onlyBroken), Bearer: testToken},
			Expect: apitest.Expect{Status: 400, Contains: []string{`"imported":[]`, `Pocket-1.0-x86_64-Build9.1.spdx.json`}},
			report: true},
		{name: "a path that does not exist", Request: apitest.Request{Method: "POST", Path: importPath(filepath.Join(dir, "nope")), Bearer: testToken},
			Expect: apitest.Expect{Status: 400, Exact: `{"error":"path: ` + filepath.Join(dir, "nope") + `: no such file or directory"}`}},
		{name: "a directory without SBOMs", Request: apitest.Request{Method: "POST", Path: importPath(noSBOM), Bearer: testToken},
			Expect: apitest.Expect{Status: 400, Exact: `{"error":"no *.spdx.json file under ` + noSBOM + `"}`}},
		{name: "an SBOM in the body", Request: apitest.Request{Method: "POST", Path: "/_appliance/explorer/import", Body: string(sample), Bearer: testToken},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"errors":[]`}},
			check:  imported(importedJSON{Product: "Leap-16.0-x86_64-Build42.1", Packages: 4})},
		{name: "the same body again: unchanged", Request: apitest.Request{Method: "POST", Path: "/_appliance/explorer/import", Body: string(sample), Bearer: testToken},
			Expect: apitest.Expect{Status: 200}, check: imported(importedJSON{Product: "Leap-16.0-x86_64-Build42.1", Packages: 4, Skipped: true})},
		{name: "a broken body: 400 and the parser's error", Request: apitest.Request{Method: "POST", Path: "/_appliance/explorer/import",
			Body: string(sample[:len(sample)/2]), Bearer: testToken},
			Expect: apitest.Expect{Status: 400, Contains: []string{`{"error":"request body`}}},
		{name: "a body that is not JSON", Request: apitest.Request{Method: "POST", Path: "/_appliance/explorer/import", Body: "hello", Bearer: testToken},
			Expect: apitest.Expect{Status: 400, Contains: []string{`{"error":"request body`}}},
		{name: "no body and no path", Request: apitest.Request{Method: "POST", Path: "/_appliance/explorer/import", Bearer: testToken},
			Expect: apitest.Expect{Status: 400, Exact: `{"error":"send a product SBOM (SPDX JSON) as the body, or ?path= to a file or directory on the appliance"}`}},
	})

	// What went in is searchable, and listed.
	e.run(t, []scenario{
		{name: "the directory's products are searchable: one RPM file, two products", Request: req(filesQ("/usr/bin/pocket")),
			Expect: ok(`"count":1,`, `"product_build":"Build7.1"`, `"product_build":"Build8.1"`)},
		{name: "the body's product is searchable", Request: req(packagesQ("legacy-tool")), Expect: ok(`"count":1,`)},
		{name: "the broken product is not", Request: req(vcsQ("pocket-cli")), Expect: ok(`"count":2,`, `Build8.1`, `Build7.1`)},
	})
	list := decode[productsOut](t, apitest.Do(t, e.app, apitest.Request{Path: "/_appliance/explorer/products", Bearer: testToken}).Body)
	var got []string
	for _, p := range list.Products {
		got = append(got, p.FullName)
	}
	want := []string{"Leap-16.0-x86_64-Build42.1", testProduct, "Pocket-1.0-x86_64-Build8.1", "hello-server-src"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("products %v, want %v", got, want)
	}
}

// jsonString is s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestAdminProductsAndRemove(t *testing.T) {
	e := newEnv(t, envOptions{})
	const gone = "Pocket-1.0-aarch64-Build1.1"
	e.run(t, []scenario{
		{name: "list without a token", Request: apitest.Request{Path: "/_appliance/explorer/products"},
			Expect: apitest.Expect{Status: 401}},
		{name: "the demo products: the farm's 1.0, the shipped 0.9", Request: apitest.Request{Path: "/_appliance/explorer/products", Bearer: testToken},
			Expect: apitest.Expect{Status: 200, Contains: []string{`"source":"build:Pocket:1.0/product/x86_64/000productcompose"`,
				`"source":"build:Pocket:1.0/product/aarch64/000productcompose"`, `"source":"demo:Pocket-0.9-x86_64-Build1.1"`}},
			check: func(t *testing.T, body string) {
				got := decode[productsOut](t, body)
				var names []string
				for _, p := range got.Products {
					names = append(names, p.FullName)
					// 36 packages each (pocket.productcompose), every one an RPM of the rpm-md;
					// the farm's imported once built, after the shipped one.
					if p.Packages != 36 || p.RPMs != p.Packages || p.Files < 50 || len(p.Digest) != 64 || p.Imported.Before(testNow) {
						t.Errorf("product %+v", p)
					}
				}
				want := "Pocket-0.9-x86_64-Build1.1 Pocket-1.0-aarch64-Build1.1 Pocket-1.0-x86_64-Build1.1"
				if strings.Join(names, " ") != want {
					t.Errorf("products %v, want %s", names, want)
				}
			}},
		{name: "its packages before", Request: req(packagesQ("pocket-cli")), Expect: ok(`"count":3,`, gone)},
		{name: "remove without a token", Request: apitest.Request{Method: "DELETE", Path: "/_appliance/explorer/products/" + gone},
			Expect: apitest.Expect{Status: 401}},
		{name: "remove", Request: apitest.Request{Method: "DELETE", Path: "/_appliance/explorer/products/" + gone, Bearer: testToken},
			Expect: apitest.Expect{Status: 204}, check: func(t *testing.T, body string) {
				if body != "" {
					t.Errorf("a 204 with a body: %s", body)
				}
			}},
		{name: "remove again: 404", Request: apitest.Request{Method: "DELETE", Path: "/_appliance/explorer/products/" + gone, Bearer: testToken},
			Expect: apitest.Expect{Status: 404, Exact: `{"error":"product ` + gone + ` is not imported"}`}},
		{name: "remove an unknown product: 404", Request: apitest.Request{Method: "DELETE", Path: "/_appliance/explorer/products/Nope", Bearer: testToken},
			Expect: apitest.Expect{Status: 404, Exact: `{"error":"product Nope is not imported"}`}},
		{name: "its packages are gone", Request: req(packagesQ("pocket-cli")), Expect: apitest.Expect{Status: 200,
			Contains: []string{`"count":2,`}, Excludes: []string{gone}}},
		{name: "its git references are gone", Request: req(vcsQ("pool/pocket-cli@pocket-1.0")), Expect: apitest.Expect{Status: 200,
			Contains: []string{`"count":1,`}, Excludes: []string{gone}}},
		{name: "its files are gone", Request: req(filesQ("/usr/bin/pocket-cli")), Expect: apitest.Expect{Status: 200,
			Contains: []string{`"count":2,`}, Excludes: []string{".aarch64.rpm"}}},
		{name: "the list", Request: apitest.Request{Path: "/_appliance/explorer/products", Bearer: testToken},
			Expect: apitest.Expect{Status: 200, Excludes: []string{gone}}},
	})
	all := decode[packagesOut](t, e.get(t, "/api/products/packages").Body)
	if productCount(all.Packages, gone) != 0 || all.Count != len(allStored(t, e.db)) {
		t.Errorf("every-package listing: %d packages of %s, %d in all", productCount(all.Packages, gone), gone, all.Count)
	}
	checkInStep(t, e)
}

func TestAdminProductsEmpty(t *testing.T) {
	e := newEnv(t, envOptions{empty: true})
	e.run(t, []scenario{
		{name: "no products: an empty list", Request: apitest.Request{Path: "/_appliance/explorer/products", Bearer: testToken},
			Expect: apitest.Expect{Status: 200, Exact: `{"products":[]}`}},
		{name: "no packages", Request: req("/api/products/packages"), Expect: apitest.Expect{Status: 200,
			Exact: `{"search_term":null,"count":0,"packages":[]}`}},
	})
}
