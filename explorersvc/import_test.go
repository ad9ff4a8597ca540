package explorersvc

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/fixtures/explorergen"
	"github.com/pocketforge/pocketforge/search/textindex"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Imports: products in whole or not at all, replaced atomically, removed, and the search
// index kept in step with the store's generation.

// samples are the SBOMs of spdx/testdata, referenced where they are.
const samples = "../spdx/testdata"

// importFile loads one SBOM (with its repodata/) and imports it, as import-spdx does.
func importFile(im *Service, path string) (Imported, error) {
	in, err := LoadSBOM(path)
	if err != nil {
		return Imported{}, err
	}
	return im.Import(in)
}

func mustImport(t testing.TB, im *Service, path string) Imported {
	t.Helper()
	res, err := importFile(im, path)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// names lists the name keys the index finds for term, sorted.
func names(t testing.TB, ix *textindex.Index, term string) []string {
	t.Helper()
	got, err := ix.Names(term)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	return got
}

// nameSet is the set of distinct lower-cased package names of an input.
func nameSet(in Input) map[string]bool {
	out := map[string]bool{}
	for _, p := range in.Product.Packages {
		out[strings.ToLower(p.Name)] = true
	}
	return out
}

// checkInStep: the index reflects the store's generation.
func checkInStep(t testing.TB, e *env) {
	t.Helper()
	if g, ig := generation(e.db), e.im.Index.Generation(); g != ig {
		t.Errorf("store generation %d, index generation %d", g, ig)
	}
}

func TestImportSamples(t *testing.T) {
	e := newEnv(t, envOptions{})
	files, err := FindSBOMs(samples)
	if err != nil || len(files) != 2 {
		t.Fatalf("FindSBOMs(%s) = %v, %v; want the two samples", samples, files, err)
	}
	cases := []struct {
		name string
		file string
		want Imported
	}{
		{"an OBS product SBOM", "SYNTHETIC_obs-product-shape.spdx.json",
			Imported{Product: "Leap-16.0-x86_64-Build42.1", Packages: 4}},
		{"a foreign SBOM", "spdx-examples_example11_sbom.spdx.json",
			Imported{Product: "hello-server-src", Packages: 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := mustImport(t, e.im, filepath.Join(samples, c.file))
			if got != c.want {
				t.Fatalf("imported %+v, want %+v", got, c.want)
			}
			checkInStep(t, e)
			var p explorerstore.Product
			e.db.View(func(tx kv.Tx) (err error) { p, err = explorerstore.GetProduct(tx, c.want.Product); return })
			abs, _ := filepath.Abs(filepath.Join(samples, c.file))
			if p.Source != abs || len(p.Digest) != 64 || !p.Imported.Equal(testNow) || p.Packages != c.want.Packages {
				t.Errorf("product record %+v", p)
			}
		})
	}
	// What the searches find of them (api/explorerapi checks how they are shown).
	t.Run("a package of the OBS sample", func(t *testing.T) {
		got := e.packages(t, "legacy-tool")
		wantCount(t, "legacy-tool", got, 1)
		if !hasEntry(got, map[string]string{"package_name": "legacy-tool", "arch": "x86_64", "filename": "legacy-tool-1.0-bp160.2.1.x86_64.rpm",
			"vcs_url": "", "vcs_org": "", "tracking_branch": "", "commit_hash": "",
			"product.name": "Leap", "product.version": "16.0", "product.architecture": "x86_64", "product.build_number": "Build42.1",
			"product.full_name": "Leap-16.0-x86_64-Build42.1"}) {
			t.Errorf("legacy-tool found as %v", got)
		}
	})
	t.Run("bash and bash-sh share a repository", func(t *testing.T) {
		got := e.vcs(t, "pool/bash@slfo-1.2")
		wantCount(t, "pool/bash@slfo-1.2", got, 2)
		if !hasEntry(got, map[string]string{"package_name": "bash"}) || !hasEntry(got, map[string]string{"package_name": "bash-sh"}) {
			t.Errorf("found %s, want bash and bash-sh", entryNames(got))
		}
	})
	t.Run("their commit", func(t *testing.T) { wantCount(t, "4ef8b1f0", e.vcs(t, "4ef8b1f0"), 2) })
	t.Run("a package of the foreign SBOM", func(t *testing.T) {
		got := e.packages(t, "tokio")
		wantCount(t, "tokio", got, 1)
		if !hasEntry(got, map[string]string{"package_name": "tokio", "arch": "", "filename": "",
			"product.name": "hello-server-src", "product.version": "", "product.architecture": "", "product.build_number": "",
			"product.full_name": "hello-server-src"}) {
			t.Errorf("tokio found as %v", got)
		}
	})
	t.Run("no file lists without repodata", func(t *testing.T) { wantCount(t, "files bash", e.files(t, "bash"), 0) })
	for _, n := range []string{"legacy-tool", "0ad", "pretty_env_logger"} {
		if got := names(t, e.im.Index, n); !slices.Equal(got, []string{n}) {
			t.Errorf("Index.Names(%q) = %v", n, got)
		}
	}
}

func TestImportGeneratedDir(t *testing.T) {
	e := newEnv(t, envOptions{})
	dir := t.TempDir()
	p := generate(testProduct, 45)
	writeProduct(t, dir, p)
	files, err := FindSBOMs(dir)
	if err != nil || len(files) != 1 {
		t.Fatalf("FindSBOMs = %v, %v", files, err)
	}
	in, err := LoadSBOM(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(in.RPMs) != 45 || len(in.Product.Packages) != 45 {
		t.Fatalf("loaded %d RPMs and %d packages, want 45 each", len(in.RPMs), len(in.Product.Packages))
	}
	fileCount := 0
	for _, r := range in.RPMs {
		fileCount += len(r.Files)
	}
	res, err := e.im.Import(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Imported{Product: testProduct, Packages: 45, RPMs: 45, Files: fileCount}); res != want || fileCount == 0 {
		t.Fatalf("imported %+v, want %+v", res, want)
	}
	checkInStep(t, e)
	t.Run("its packages", func(t *testing.T) { wantCount(t, "every package", e.all(t), 45) })
	t.Run("its files", func(t *testing.T) {
		got := e.files(t, "/usr/bin/pocket")
		wantCount(t, "/usr/bin/pocket", got, 1)
		if len(got) == 1 && (got[0].Path != "/usr/bin/pocket" || !strings.HasPrefix(got[0].RPM, "pocket-cli-") ||
			!hasEntry(got[0].Entries, map[string]string{"product.name": "Pocket", "product.version": "1.0", "product.build_number": "Build7.1"})) {
			t.Errorf("found %+v", got)
		}
	})
	t.Run("its git references", func(t *testing.T) {
		wantCount(t, "pool/pocket-cli@pocket-1.0", e.vcs(t, "pool/pocket-cli@pocket-1.0"), 1)
	})
}

// TestReimport: unchanged is skipped; changed replaces the product whole, and the index loses
// the names no package has any more.
func TestReimport(t *testing.T) {
	e := newEnv(t, envOptions{})
	dirA, dirB := t.TempDir(), t.TempDir()
	pathA := writeProduct(t, dirA, generate(testProduct, 45))
	pathB := writeProduct(t, dirB, generate(testProduct, 30))
	inA, _ := LoadSBOM(pathA)
	inB, _ := LoadSBOM(pathB)
	var onlyA []string
	for n := range nameSet(inA) {
		if !nameSet(inB)[n] {
			onlyA = append(onlyA, n)
		}
	}
	slices.Sort(onlyA)
	if len(onlyA) < 5 || !slices.Contains(onlyA, "busybox") {
		t.Fatalf("A's names missing from B: %v; want busybox and more", onlyA)
	}

	first := mustImport(t, e.im, pathA)
	gen := generation(e.db)
	e.clk.Advance(time.Hour)
	again := mustImport(t, e.im, pathA)
	if !again.Skipped || again.Packages != 45 || again.Files != first.Files || generation(e.db) != gen {
		t.Fatalf("re-import of an unchanged file: %+v (first %+v), generation %d → %d", again, first, gen, generation(e.db))
	}
	var rec explorerstore.Product
	e.db.View(func(tx kv.Tx) (err error) { rec, err = explorerstore.GetProduct(tx, testProduct); return })
	if !rec.Imported.Equal(testNow) {
		t.Errorf("a skipped import touched the record: imported %v", rec.Imported)
	}

	res := mustImport(t, e.im, pathB)
	if res.Skipped || res.Packages != 30 || productPackages(t, e.db, testProduct) != 30 {
		t.Fatalf("re-import of a changed product: %+v, %d packages stored", res, productPackages(t, e.db, testProduct))
	}
	checkInStep(t, e)
	for _, n := range onlyA {
		if got := names(t, e.im.Index, n); slices.Contains(got, n) {
			t.Errorf("the index still has %q, which no package has any more", n)
		}
	}
	for n := range nameSet(inB) {
		if got := names(t, e.im.Index, n); !slices.Contains(got, n) {
			t.Errorf("the index lost %q, which B still has", n)
		}
	}
	all := e.all(t)
	if len(all) != 30 {
		t.Errorf("after the replacement %d packages, want B's 30", len(all))
	}
	for _, p := range all {
		if !nameSet(inB)[p.Package.Name] {
			t.Errorf("%s of A is still served", p.Package.Name)
		}
	}
	t.Run("A's packages are gone", func(t *testing.T) { wantCount(t, "busybox", e.packages(t, "busybox"), 0) })
	t.Run("A's files are gone", func(t *testing.T) { wantCount(t, "files busybox", e.files(t, "busybox"), 0) })
	t.Run("A's git references are gone", func(t *testing.T) { wantCount(t, "git busybox", e.vcs(t, "busybox"), 0) })
	t.Run("B's packages are there", func(t *testing.T) { wantCount(t, "pocket-cli", e.packages(t, "pocket-cli"), 1) })

	back := mustImport(t, e.im, pathA)
	if back.Skipped || productPackages(t, e.db, testProduct) != 45 {
		t.Fatalf("back to A: %+v", back)
	}
	checkInStep(t, e)
	if got := names(t, e.im.Index, "busybox"); len(got) == 0 {
		t.Errorf("busybox is not indexed again")
	}
}

// TestRemove: a removed product's packages and the index keys only it had are gone; keys
// another product shares stay.
func TestRemove(t *testing.T) {
	e := newEnv(t, envOptions{})
	dir := t.TempDir()
	x86 := generate(testProduct, 45)
	arm := explorergen.Generate(explorergen.Options{Seed: 7, Packages: 20, FilesPerPackage: 3,
		Products: []explorergen.ProductSpec{{Name: "Pocket-1.0-aarch64-Build7.1", Release: "1.0", Arch: "aarch64", Packages: 40}}})[0]
	mustImport(t, e.im, writeProduct(t, dir, x86))
	mustImport(t, e.im, writeProduct(t, dir, arm))
	if got := names(t, e.im.Index, "32bit"); len(got) == 0 {
		t.Fatalf("the x86_64 product has no -32bit package to lose")
	}

	steps := []struct {
		name    string
		remove  string
		bump    bool     // the generation goes up
		gone    []string // name terms the index no longer finds
		kept    []string // name terms it still finds
		product string   // a product that must still be there
	}{
		{"an unknown product: nothing happens", "Nope-1.0-x86_64-Build1.1", false, nil, []string{"32bit", "pocket-cli"}, testProduct},
		{"the x86_64 product", testProduct, true, []string{"32bit"}, []string{"pocket-cli", "busybox"}, "Pocket-1.0-aarch64-Build7.1"},
		{"again: nothing happens", testProduct, false, []string{"32bit"}, []string{"pocket-cli"}, "Pocket-1.0-aarch64-Build7.1"},
		{"the last product", "Pocket-1.0-aarch64-Build7.1", true, []string{"pocket-cli", "busybox", "bash"}, nil, ""},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			gen := generation(e.db)
			if err := e.im.Remove(s.remove); err != nil {
				t.Fatal(err)
			}
			if bumped := generation(e.db) > gen; bumped != s.bump {
				t.Errorf("generation %d → %d", gen, generation(e.db))
			}
			checkInStep(t, e)
			if productPackages(t, e.db, s.remove) != -1 {
				t.Errorf("%s is still imported", s.remove)
			}
			for _, n := range s.gone {
				if got := names(t, e.im.Index, n); len(got) > 0 {
					t.Errorf("the index still finds %q: %v", n, got)
				}
			}
			for _, n := range s.kept {
				if got := names(t, e.im.Index, n); len(got) == 0 {
					t.Errorf("the index lost %q", n)
				}
			}
			all := e.all(t)
			if productCount(all, s.remove) != 0 {
				t.Errorf("packages of %s are still served", s.remove)
			}
			if s.product != "" && productCount(all, s.product) != productPackages(t, e.db, s.product) {
				t.Errorf("%s lost packages", s.product)
			}
		})
	}
	if n, _ := e.im.Index.Count(); n != 0 {
		t.Errorf("with no product left the index holds %d documents", n)
	}
	var left int
	e.db.View(func(tx kv.Tx) error {
		return explorerstore.EachKey(tx, "explorer/by_file", func(string) error { left++; return nil })
	})
	if left != 0 {
		t.Errorf("%d file keys left", left)
	}
}

// TestEnsureIndex: the index is rebuilt when it does not reflect the store's generation, and
// left alone when it does.
func TestEnsureIndex(t *testing.T) {
	cases := []struct {
		name    string
		damage  func(t *testing.T, e *env) // what happened to the index
		force   bool
		rebuilt bool // the index finds pocket-cli and nothing stale afterwards
	}{
		{"a new, empty index", func(t *testing.T, e *env) {
			ix, fresh, err := textindex.Open("")
			if err != nil || !fresh {
				t.Fatal(err)
			}
			e.im.Index.Close()
			e.im.Index = ix
		}, false, true},
		{"an index emptied", func(t *testing.T, e *env) {
			if err := e.im.Index.Rebuild(func(func(textindex.Doc) error) error { return nil }, 0); err != nil {
				t.Fatal(err)
			}
		}, false, true},
		{"an index a generation behind (a crash between an import's steps)", func(t *testing.T, e *env) {
			err := e.im.Index.Apply([]textindex.Doc{textindex.NameDoc("stale-name")}, []string{textindex.NameDocID("pocket-cli")}, generation(e.db)-1)
			if err != nil {
				t.Fatal(err)
			}
		}, false, true},
		{"an index ahead of the store (a restored snapshot)", func(t *testing.T, e *env) {
			err := e.im.Index.Apply([]textindex.Doc{textindex.NameDoc("stale-name")}, []string{textindex.NameDocID("pocket-cli")}, generation(e.db)+5)
			if err != nil {
				t.Fatal(err)
			}
		}, false, true},
		{"an index at the store's generation is trusted", func(t *testing.T, e *env) {
			err := e.im.Index.Apply([]textindex.Doc{textindex.NameDoc("stale-name")}, []string{textindex.NameDocID("pocket-cli")}, generation(e.db))
			if err != nil {
				t.Fatal(err)
			}
		}, false, false},
		{"force rebuilds one at the store's generation", func(t *testing.T, e *env) {
			err := e.im.Index.Apply([]textindex.Doc{textindex.NameDoc("stale-name")}, []string{textindex.NameDocID("pocket-cli")}, generation(e.db))
			if err != nil {
				t.Fatal(err)
			}
		}, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, envOptions{})
			mustImport(t, e.im, writeProduct(t, t.TempDir(), generate(testProduct, 45)))
			mustImport(t, e.im, filepath.Join(samples, "SYNTHETIC_obs-product-shape.spdx.json"))
			want, _ := e.im.Index.Count()
			c.damage(t, e)
			if err := e.im.EnsureIndex(c.force); err != nil {
				t.Fatal(err)
			}
			found := len(names(t, e.im.Index, "pocket-cli")) == 1 && len(names(t, e.im.Index, "stale-name")) == 0
			if found != c.rebuilt {
				t.Fatalf("after EnsureIndex(%v): pocket-cli %v, stale-name %v; want rebuilt %v", c.force,
					names(t, e.im.Index, "pocket-cli"), names(t, e.im.Index, "stale-name"), c.rebuilt)
			}
			if !c.rebuilt {
				return
			}
			checkInStep(t, e)
			if n, _ := e.im.Index.Count(); n != want {
				t.Errorf("rebuilt index holds %d documents, the imports made %d", n, want)
			}
			if !strings.Contains(e.logs.String(), "explorer search index rebuilt") {
				t.Errorf("the rebuild was not logged:\n%s", e.logs)
			}
			t.Run("names", func(t *testing.T) { wantCount(t, "pocket-cli", e.packages(t, "pocket-cli"), 1) })
			t.Run("git", func(t *testing.T) { wantCount(t, "pool/bash@slfo-1.2", e.vcs(t, "pool/bash@slfo-1.2"), 2) })
		})
	}
}

// TestIndexOnDisk: an index beside the data file keeps its documents and generation over a
// reopen, so EnsureIndex has nothing to do.
func TestIndexOnDisk(t *testing.T) {
	e := newEnv(t, envOptions{})
	path := filepath.Join(t.TempDir(), "d.db.index")
	ix, fresh, err := textindex.Open(path)
	if err != nil || !fresh {
		t.Fatalf("open: fresh %v, %v", fresh, err)
	}
	im := &Service{Store: e.db, Index: ix, Now: e.clk.Now, Log: e.log}
	mustImport(t, im, writeProduct(t, t.TempDir(), generate(testProduct, 45)))
	gen := ix.Generation()
	ix.Close()

	ix, fresh, err = textindex.Open(path)
	if err != nil || fresh {
		t.Fatalf("reopen: fresh %v, %v", fresh, err)
	}
	defer ix.Close()
	im.Index = ix
	if ix.Generation() != gen || gen != generation(e.db) {
		t.Fatalf("reopened at generation %d, was %d, store %d", ix.Generation(), gen, generation(e.db))
	}
	if err := im.EnsureIndex(false); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(e.logs.String(), "rebuilt") {
		t.Errorf("an index in step was rebuilt")
	}
	if got := names(t, ix, "pocket-cli"); !slices.Equal(got, []string{"pocket-cli"}) {
		t.Errorf("Names(pocket-cli) = %v", got)
	}
}
