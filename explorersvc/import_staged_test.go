package explorersvc

import (
	"testing"

	"github.com/pocketforge/pocketforge/fixtures/explorergen"
	"github.com/pocketforge/pocketforge/store/explorerstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestImportStaged: a product too large for one transaction (more keys than a staging
// transaction takes) is staged, moved into place whole and leaves no staging behind; records
// a crash left staged are dropped by EnsureIndex at the next start, the products untouched.
func TestImportStaged(t *testing.T) {
	e := newEnv(t, envOptions{})
	p := explorergen.Generate(explorergen.Options{Seed: 7, Packages: 20, FilesPerPackage: 20,
		Products: []explorergen.ProductSpec{{Name: testProduct, Release: "1.0", Arch: "x86_64", Packages: 2000, Files: 40_000}}})[0]
	in, err := LoadSBOM(writeProduct(t, t.TempDir(), p))
	if err != nil {
		t.Fatal(err)
	}
	in.prepare() // as LoadAhead does
	res, err := e.im.Import(in)
	if err != nil || res.Packages != 2000 || res.Files != 40_000 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	staged := func() (b bool) {
		_ = e.db.View(func(tx kv.Tx) error { b = explorerstore.HasStaged(tx); return nil })
		return
	}
	if staged() {
		t.Fatal("staging left after the import")
	}
	checkInStep(t, e)
	wantCount(t, "every package", e.all(t), 2000)
	if got := e.files(t, "/usr/bin/pocket"); len(got) != 1 {
		t.Fatalf("/usr/bin/pocket: %+v", got)
	}

	again, err := LoadSBOM(writeProduct(t, t.TempDir(), p))
	if err != nil {
		t.Fatal(err)
	}
	prep, err := explorerstore.Prepare(again.Product, again.RPMs)
	if err != nil {
		t.Fatal(err)
	}
	if err := explorerstore.Stage(prep, e.db.Write); err != nil || !staged() {
		t.Fatalf("stage: %v, staged %v", err, staged())
	}
	if err := e.im.EnsureIndex(false); err != nil || staged() {
		t.Fatalf("EnsureIndex: %v, staged %v", err, staged())
	}
	if n := productPackages(t, e.db, testProduct); n != 2000 {
		t.Fatalf("after the staged records were dropped the product has %d packages", n)
	}
}
