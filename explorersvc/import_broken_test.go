package explorersvc

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/fixtures/explorergen"
	"github.com/pocketforge/pocketforge/spdx"
)

// Inputs that do not import: nothing of them reaches the store or the index.

// withRepodata returns p with the repodata file whose name ends in suffix replaced by data,
// and repomd.xml's checksum of it updated when fixSum is set (else it no longer matches).
func withRepodata(t testing.TB, p explorergen.Product, suffix string, data []byte, fixSum bool) explorergen.Product {
	t.Helper()
	p.Repodata = maps.Clone(p.Repodata)
	var name string
	for n := range p.Repodata {
		if strings.HasSuffix(n, suffix) {
			name = n
		}
	}
	if name == "" {
		t.Fatalf("no repodata file ends in %s", suffix)
	}
	old := sha256.Sum256(p.Repodata[name])
	p.Repodata[name] = data
	if fixSum {
		sum := sha256.Sum256(data)
		md := string(p.Repodata["repodata/repomd.xml"])
		from := `<checksum type="sha256">` + hex.EncodeToString(old[:]) + `</checksum>`
		if !strings.Contains(md, from) {
			t.Fatalf("repomd.xml has no %s", from)
		}
		md = strings.Replace(md, from, `<checksum type="sha256">`+hex.EncodeToString(sum[:])+`</checksum>`, 1)
		p.Repodata["repodata/repomd.xml"] = []byte(md)
	}
	return p
}

// repodataFile is the content of p's repodata file ending in suffix.
func repodataFile(p explorergen.Product, suffix string) []byte {
	for n, data := range p.Repodata {
		if strings.HasSuffix(n, suffix) {
			return data
		}
	}
	return nil
}

// TestImportBroken: an input that does not load is an error naming the file, and nothing of
// it reaches the store or the index; the product it would have replaced stays as it was.
func TestImportBroken(t *testing.T) {
	good := generate(testProduct, 30)
	primary := repodataFile(good, "-primary.xml.gz")
	filelists := repodataFile(good, "-filelists.xml.gz")
	cases := []struct {
		name  string
		make  func(t *testing.T) explorergen.Product
		after func(t *testing.T, dir string) // changes on disk after writing, when set
		file  string                         // the file the error must name: "sbom", "repomd.xml" or a suffix
		words string                         // and the problem
	}{
		{"a truncated SBOM", func(t *testing.T) explorergen.Product {
			p := good
			p.SPDX = p.SPDX[:len(p.SPDX)/2]
			return p
		}, nil, "sbom", "truncated"},
		{"an SBOM that is not JSON", func(t *testing.T) explorergen.Product {
			p := good
			p.SPDX = []byte("<html>not json</html>")
			return p
		}, nil, "sbom", ""},
		{"an empty SBOM", func(t *testing.T) explorergen.Product {
			p := good
			p.SPDX = nil
			return p
		}, nil, "sbom", ""},
		{"a corrupt gzip in repodata", func(t *testing.T) explorergen.Product {
			return withRepodata(t, good, "-primary.xml.gz", []byte("this is not gzip at all"), true)
		}, nil, "-primary.xml.gz", "gzip"},
		{"a gzip whose data is damaged", func(t *testing.T) explorergen.Product {
			bad := slices.Clone(filelists)
			for i := 20; i < len(bad)-8; i += 7 {
				bad[i] ^= 0x5a
			}
			return withRepodata(t, good, "-filelists.xml.gz", bad, true)
		}, nil, "-filelists.xml.gz", ""},
		{"a truncated gzip in repodata", func(t *testing.T) explorergen.Product {
			return withRepodata(t, good, "-filelists.xml.gz", filelists[:len(filelists)/2], true)
		}, nil, "-filelists.xml.gz", "truncated"},
		{"a checksum mismatch", func(t *testing.T) explorergen.Product {
			return withRepodata(t, good, "-primary.xml.gz", append(slices.Clone(primary), 0), false)
		}, nil, "-primary.xml.gz", "checksum mismatch"},
		{"a missing data file", func(t *testing.T) explorergen.Product { return good }, func(t *testing.T, dir string) {
			list, _ := filepath.Glob(filepath.Join(dir, testProduct, "repodata", "*-filelists.xml.gz"))
			if len(list) != 1 {
				t.Fatalf("filelists: %v", list)
			}
			os.Remove(list[0])
		}, "-filelists.xml.gz", "no such file"},
		{"a broken repomd.xml", func(t *testing.T) explorergen.Product {
			p := good
			p.Repodata = maps.Clone(p.Repodata)
			p.Repodata["repodata/repomd.xml"] = []byte("<repomd><data")
			return p
		}, nil, "repomd.xml", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, envOptions{})
			before := mustImport(t, e.im, writeProduct(t, t.TempDir(), generate(testProduct, 45)))
			gen := generation(e.db)
			docs, _ := e.im.Index.Count()

			dir := t.TempDir()
			path := writeProduct(t, dir, c.make(t))
			if c.after != nil {
				c.after(t, dir)
			}
			// The same input under another product name: nothing of it may appear.
			other := c.make(t)
			other.SPDX = []byte(strings.ReplaceAll(string(other.SPDX), testProduct, "Pocket-1.0-x86_64-Build8.1"))
			otherDir := t.TempDir()
			res, err := importFile(e.im, path)
			if err == nil {
				t.Fatalf("imported %+v", res)
			}
			// The error names the file, with the product's directory: import-spdx prints it
			// alone, over a directory of many products.
			want := c.file
			if want == "sbom" {
				want = path
			}
			if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), filepath.Dir(path)) || !strings.Contains(err.Error(), c.words) {
				t.Errorf("error %q, want it to name %s in %s and say %q", err, want, filepath.Dir(path), c.words)
			}
			t.Log(err)
			if c.after == nil {
				if _, err := importFile(e.im, writeProduct(t, otherDir, other)); err == nil {
					t.Errorf("a broken new product was imported")
				}
			}
			if n := productPackages(t, e.db, testProduct); n != before.Packages {
				t.Errorf("the product it would replace has %d packages, had %d", n, before.Packages)
			}
			if productPackages(t, e.db, "Pocket-1.0-x86_64-Build8.1") != -1 {
				t.Errorf("the broken new product is in the store")
			}
			if generation(e.db) != gen {
				t.Errorf("generation %d → %d", gen, generation(e.db))
			}
			if n, _ := e.im.Index.Count(); n != docs {
				t.Errorf("index documents %d → %d", docs, n)
			}
			if got := names(t, e.im.Index, "busybox"); len(got) == 0 {
				t.Errorf("the old product's names left the index")
			}
		})
	}
}

// TestImportRefused: an input the store refuses (no product name) changes nothing a search sees.
func TestImportRefused(t *testing.T) {
	e := newEnv(t, envOptions{})
	mustImport(t, e.im, filepath.Join(samples, "SYNTHETIC_obs-product-shape.spdx.json"))
	gen := generation(e.db)
	in := Input{Product: spdx.Product{Packages: []spdx.Package{{Name: "orphan-package", Arch: "x86_64"}}}, Source: "test", Digest: "x"}
	if _, err := e.im.Import(in); err == nil || !strings.Contains(err.Error(), "product name") {
		t.Fatalf("Import without a product name: %v", err)
	}
	if generation(e.db) != gen {
		t.Errorf("generation %d → %d", gen, generation(e.db))
	}
	t.Run("its packages are not served", func(t *testing.T) { wantCount(t, "orphan-package", e.packages(t, "orphan-package"), 0) })
	t.Run("the others are", func(t *testing.T) { wantCount(t, "legacy-tool", e.packages(t, "legacy-tool"), 1) })
}
