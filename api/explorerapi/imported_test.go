package explorerapi

import (
	"path/filepath"
	"testing"

	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// Products imported through the explorer's domain, as the searches show them over HTTP. What an
// import does (whole or not at all, replaced, removed, the index in step) is tested in
// explorersvc; these are the wire forms of what it found.

// samples are the SBOMs of spdx/testdata, referenced where they are.
const samples = "../../spdx/testdata"

// req and ok shorten scenario tables.
func req(path string) apitest.Request { return apitest.Request{Path: path} }

func ok(contains ...string) apitest.Expect { return apitest.Expect{Status: 200, Contains: contains} }

// mustImport loads one SBOM (with its repodata/) and imports it, as import-spdx does.
func mustImport(t testing.TB, svc *explorersvc.Service, path string) explorersvc.Imported {
	t.Helper()
	in, err := explorersvc.LoadSBOM(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := svc.Import(in)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkInStep: the index reflects the store's generation.
func checkInStep(t testing.TB, e *env) {
	t.Helper()
	if g, ig := generation(e.db), e.im.Index.Generation(); g != ig {
		t.Errorf("store generation %d, index generation %d", g, ig)
	}
}

// productCount counts the packages of product full in a packages answer.
func productCount(list []packageOut, full string) int {
	n := 0
	for _, p := range list {
		if p.Product.FullName == full {
			n++
		}
	}
	return n
}

// TestImportedShown: the samples (an OBS product and a foreign SBOM, neither with repodata)
// and a generated product with file lists, imported, then searched over HTTP.
func TestImportedShown(t *testing.T) {
	e := newEnv(t, envOptions{empty: true})
	mustImport(t, e.im, filepath.Join(samples, "SYNTHETIC_obs-product-shape.spdx.json"))
	mustImport(t, e.im, filepath.Join(samples, "spdx-examples_example11_sbom.spdx.json"))
	e.run(t, []scenario{
		{name: "a package of the OBS sample", Request: req(packagesQ("legacy-tool")), Expect: ok(
			`"count":1,`, `"package_name":"legacy-tool","arch":"x86_64","filename":"legacy-tool-1.0-bp160.2.1.x86_64.rpm","vcs_url":"","vcs_org":"","tracking_branch":"","commit_hash":""`,
			`"product":{"name":"Leap","version":"16.0","architecture":"x86_64","build_number":"Build42.1","full_name":"Leap-16.0-x86_64-Build42.1"}`)},
		{name: "bash and bash-sh share a repository", Request: req(vcsQ("pool/bash@slfo-1.2")), Expect: ok(
			`"count":2,`, `"package_name":"bash",`, `"package_name":"bash-sh",`)},
		{name: "their commit", Request: req(vcsQ("4ef8b1f0")), Expect: ok(`"count":2,`)},
		{name: "a package of the foreign SBOM", Request: req(packagesQ("tokio")), Expect: ok(
			`"count":1,`, `"package_name":"tokio","arch":"","filename":""`,
			`"product":{"name":"hello-server-src","version":"","architecture":"","build_number":"","full_name":"hello-server-src"}`)},
		{name: "no file lists without repodata", Request: req(filesQ("bash")), Expect: ok(`"count":0,"results":[]`)},
		{name: "no package found", Request: req(packagesQ("busybox")), Expect: ok(`"count":0,"packages":[]`)},
		{name: "no git reference found", Request: req(vcsQ("busybox")), Expect: ok(`"count":0,"packages":[]`)},
	})
	mustImport(t, e.im, writeProduct(t, t.TempDir(), generate(testProduct, 45)))
	checkInStep(t, e)
	e.run(t, []scenario{
		{name: "its packages", Request: req("/api/products/packages"), Expect: ok(`"count":52,`)},
		{name: "its files", Request: req(filesQ("/usr/bin/pocket")), Expect: ok(`"count":1,`,
			`"file_path":"/usr/bin/pocket","rpm_filename":"pocket-cli-`, `"product_name":"Pocket","product_version":"1.0","product_build":"Build7.1"`)},
		{name: "its git references", Request: req(vcsQ("pool/pocket-cli@pocket-1.0")), Expect: ok(`"count":1,`)},
	})
}
