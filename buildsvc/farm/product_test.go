package farm

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/internal/spdxcheck"
	"github.com/pocketforge/pocketforge/packaging/product"
	"github.com/pocketforge/pocketforge/packaging/resolve"
	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// productConfig makes dev's repository "product" a product repository, as a distribution's
// configuration does.
const productConfig = "%if \"%_repository\" == \"product\"\nType: productcompose\n%endif\n"

// productDef is a product shipping app and libfoo, built for x86_64 only.
const productDef = `product_compose_schema: 0.2
vendor: Dev
name: Dev
version: 2.0
architectures: [x86_64]
packagesets:
- packages: [app, libfoo]
`

// newProductWorld is the farm world with dev's repository "product" (path dev/standard) and
// its product package 000productcompose, on x86_64 and aarch64.
func newProductWorld(t *testing.T) *farmWorld {
	f := newFarmWorld(t, "x86_64", "aarch64")
	f.write(func(tx kv.Tx) error {
		p, err := buildstore.GetProject(tx, "dev")
		if err != nil {
			return err
		}
		p.Config = productConfig
		p.Repositories = append(p.Repositories, buildstore.Repository{Name: "product", Archs: []string{"x86_64", "aarch64"},
			Paths: []buildstore.Path{{Project: "dev", Repository: "standard"}}})
		return buildstore.PutProject(tx, p)
	})
	f.commit("libfoo", spec("libfoo", "Provides: foo-api = 2"))
	f.commit("app", spec("app", "BuildRequires: foo-api >= 2"))
	f.write(func(tx kv.Tx) error { // libfoo follows git, app does not
		k, err := buildstore.GetPackage(tx, "dev", "libfoo")
		if err != nil {
			return err
		}
		k.SCMSync = "https://src.pocketforge.test/pool/libfoo#dev-2.0"
		return buildstore.PutPackage(tx, k)
	})
	f.commitFile("000productcompose", "dev.productcompose", productDef)
	return f
}

// commitFile puts package pkg of dev with one file.
func (f *farmWorld) commitFile(pkg, name, body string) {
	f.t.Helper()
	f.write(func(tx kv.Tx) error {
		if _, err := buildstore.GetPackage(tx, "dev", pkg); err != nil {
			if err := buildstore.PutPackage(tx, buildstore.Package{Project: "dev", Name: pkg}); err != nil {
				return err
			}
		}
		sum, err := buildstore.PutBlob(tx, []byte(body))
		if err != nil {
			return err
		}
		_, err = buildsvc.CommitRevision(tx, "dev", pkg, []buildstore.FileEntry{{Name: name, MD5: sum}}, buildstore.Revision{User: "alice"}, f.clk.Now())
		return err
	})
}

// productCode is the product package's code (and details) in dev/product/arch.
func (f *farmWorld) productCode(arch string) string {
	var out string
	f.db.View(func(tx kv.Tx) error {
		st, err := buildstore.GetStatus(tx, buildstore.Where{Project: "dev", Repository: "product", Arch: arch}, "000productcompose")
		if err == nil {
			out = st.Code
			if st.Details != "" {
				out += " (" + st.Details + ")"
			}
		}
		return nil
	})
	return out
}

// settleAll ticks until no where of dev is scheduled, building or blocked.
func (f *farmWorld) settleAll() {
	f.t.Helper()
	for i := 0; i < 60; i++ {
		f.tick()
		quiet := false
		f.db.View(func(tx kv.Tx) error { quiet = buildstore.FarmQuiet(tx); return nil })
		if quiet {
			return
		}
		f.clk.Advance(11 * time.Second)
	}
	f.t.Fatalf("the farm did not settle: %s / product %s", f.codes("x86_64"), f.productCode("x86_64"))
}

// TestProductBuild: a product package builds in the product repository only, waits for what
// it ships, writes an SBOM and rpm-md of it that the explorer's readers take, publishes them
// as a medium; a failing shipped package fails the product, and its fix rebuilds it.
func TestProductBuild(t *testing.T) {
	f := newProductWorld(t)
	f.tick()
	if got := f.productCode("x86_64"); got != "unresolvable (nothing provides app, nothing provides libfoo)" {
		t.Fatalf("before anything built, the product is %q", got)
	}
	if got := f.productCode("aarch64"); got != "excluded" {
		t.Errorf("on an arch the product is not for: %q", got)
	}
	if !strings.Contains(f.codes("x86_64"), "000productcompose:excluded") {
		t.Errorf("the product package in the spec repository: %s", f.codes("x86_64"))
	}
	f.settleAll()
	if got := f.productCode("x86_64"); got != "succeeded" {
		t.Fatalf("after the packages built, the product is %q", got)
	}
	media, err := f.svc.PublishedProducts(buildstore.Person{Login: "alice"}, "dev")
	if err != nil || len(media) != 1 {
		t.Fatalf("published media: %v %+v", err, media)
	}
	m := media[0]
	if m.Name != "Dev-2.0-x86_64-Build1.1" || m.Repository != "product" || m.Arch != "x86_64" || m.Package != "000productcompose" || len(m.Digest) != 64 {
		t.Errorf("the medium: %+v", m)
	}
	fsys, err := f.svc.ProductFiles(buildstore.Person{Login: "alice"}, m)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := fs.ReadFile(fsys, m.Name+".spdx.json")
	if err != nil {
		t.Fatal(err)
	}
	prod, err := spdx.ParseDocument(bytes.NewReader(doc), m.Name+".spdx.json")
	if err != nil {
		t.Fatalf("the SBOM does not parse: %v\n%s", err, doc)
	}
	if err := spdxcheck.Validate(doc); err != nil {
		t.Errorf("the farm's SBOM does not validate against the SPDX 2.3 schema: %v\n%s", err, doc)
	}
	if prod.FullName != m.Name || len(prod.Packages) != 2 {
		t.Errorf("the SBOM's product: %s with %d packages", prod.FullName, len(prod.Packages))
	}
	var commit, disturl string
	for _, p := range prod.Packages {
		if !strings.HasPrefix(p.DistURL, "obs://pocketforge/dev/standard/") || !strings.HasSuffix(p.DistURL, "-"+p.Name) {
			t.Errorf("%s: disturl %q", p.Name, p.DistURL)
		}
		switch p.Name {
		case "libfoo":
			commit, disturl = p.CommitHash, p.DistURL
			if p.VCSURL != "https://src.pocketforge.test/pool/libfoo" || p.TrackingBranch != "dev-2.0" || len(p.CommitHash) != 64 {
				t.Errorf("libfoo's git reference: %q %q %q", p.VCSURL, p.TrackingBranch, p.CommitHash)
			}
		case "app":
			if p.VCSURL != "" || p.CommitHash != "" {
				t.Errorf("app has no scmsync, yet a git reference %q#%q", p.VCSURL, p.CommitHash)
			}
		}
	}
	rpms, err := spdx.ParseRepodata(fsys, "repodata")
	if err != nil || len(rpms) != 2 {
		t.Fatalf("the medium's rpm-md: %v %+v", err, rpms)
	}

	// libfoo fails: the product waits while it builds, then fails saying why.
	f.commit("libfoo", strings.Replace(spec("libfoo", "Provides: foo-api = 2"), "%build\nmake\n", "%build\nmake\n\n%check\nexit 1\n", 1))
	f.tick()
	if got := f.productCode("x86_64"); !strings.HasPrefix(got, "blocked") || !strings.Contains(got, "libfoo") {
		t.Errorf("while libfoo rebuilds, the product is %q", got)
	}
	f.settleAll()
	if got := f.productCode("x86_64"); got != "failed" {
		t.Fatalf("after libfoo failed, the product is %q", got)
	}
	f.db.View(func(tx kv.Tx) error {
		log, _ := buildstore.Log(tx, buildstore.Where{Project: "dev", Repository: "product", Arch: "x86_64"}, "000productcompose", false)
		if !strings.Contains(string(log), "libfoo (dev/standard), whose build failed") {
			t.Errorf("the failed product's log:\n%s", log)
		}
		return nil
	})

	// The fix, a new version: libfoo builds, and the product is rebuilt with the new binaries.
	f.commit("libfoo", strings.Replace(spec("libfoo", "Provides: foo-api = 2"), "Version: 1.0", "Version: 1.1", 1))
	f.settleAll()
	if got := f.productCode("x86_64"); got != "succeeded" {
		t.Fatalf("after the fix, the product is %q", got)
	}
	media, _ = f.svc.PublishedProducts(buildstore.Person{Login: "alice"}, "dev")
	if len(media) != 1 || media[0].Name == m.Name || media[0].Digest == m.Digest {
		t.Fatalf("after the rebuild: %+v (before %+v)", media, m)
	}
	fsys, _ = f.svc.ProductFiles(buildstore.Person{Login: "alice"}, media[0])
	doc, _ = fs.ReadFile(fsys, media[0].Name+".spdx.json")
	prod, err = spdx.ParseDocument(bytes.NewReader(doc), media[0].Name+".spdx.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range prod.Packages {
		if p.Name == "libfoo" && (p.CommitHash == commit || len(p.CommitHash) != 64 || p.DistURL == disturl || !strings.HasPrefix(p.Version, "1.1-")) {
			t.Errorf("libfoo's new revision: %s %s %q (before %q)", p.Version, p.DistURL, p.CommitHash, commit)
		}
	}
}

// TestProductBroken: a definition that does not parse, or names a repository off the product
// repository's path, is the product package's breakage in its own words.
func TestProductBroken(t *testing.T) {
	f := newProductWorld(t)
	f.commitFile("000productcompose", "dev.productcompose", "product_compose_schema: 0.2\nname: [\n")
	f.tick()
	if got := f.productCode("x86_64"); !strings.HasPrefix(got, "broken (dev.productcompose: ") {
		t.Errorf("a definition that does not parse: %q", got)
	}
	f.commitFile("000productcompose", "dev.productcompose", productDef+"repositories: [other:prj/standard]\n")
	f.tick()
	if got := f.productCode("x86_64"); got != "broken (repository other:prj/standard is not on the path of the product repository)" {
		t.Errorf("a repository off the path: %q", got)
	}
}

// TestProductPick: of one repository's binaries of a name, a product ships one that meets the
// definition's constraint, the repository's own build before an imported copy (even an imported
// higher version: the bootstrap copy a distribution's build replaces), then the highest.
func TestProductPick(t *testing.T) {
	imported := resolve.Binary{Name: "fs", Version: "1.1", Release: "0.1", Arch: "noarch", Package: RepositoryPackage}
	built := resolve.Binary{Name: "fs", Version: "1.0", Release: "2.1", Arch: "noarch", Package: "fs"}
	newer := resolve.Binary{Name: "fs", Version: "1.0", Release: "3.1", Arch: "noarch", Package: "fs"}
	for _, c := range []struct {
		name  string
		cands []resolve.Binary
		pkg   product.Package
		want  string
	}{
		{"the build before the import", []resolve.Binary{imported, built}, product.Package{Name: "fs"}, "1.0-2.1"},
		{"the highest build", []resolve.Binary{built, newer, imported}, product.Package{Name: "fs"}, "1.0-3.1"},
		{"the import when nothing is built", []resolve.Binary{imported}, product.Package{Name: "fs"}, "1.1-0.1"},
		{"a constraint only the import meets", []resolve.Binary{built, imported}, product.Package{Name: "fs", Op: ">=", Version: "1.1"}, "1.1-0.1"},
		{"a constraint none meets", []resolve.Binary{built, imported}, product.Package{Name: "fs", Op: ">", Version: "2"}, ""},
		{"none", nil, product.Package{Name: "fs"}, ""},
	} {
		got := ""
		if b := pick(c.cands, c.pkg); b != nil {
			got = b.EVR()
		}
		if got != c.want {
			t.Errorf("%s: picked %q, want %q", c.name, got, c.want)
		}
	}
}
