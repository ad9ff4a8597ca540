package explorerapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/fixtures/explorergen"
	"github.com/pocketforge/pocketforge/spdx"
)

// Imports while searches run: a search sees a product before or after an import, whole.

// fetch GETs path and decodes a 200 answer; safe in any goroutine (it reports, never fails t).
func fetch[T any](e *env, path string) (T, error) {
	var v T
	resp, err := e.app.Test(httptest.NewRequest("GET", path, nil), -1)
	if err != nil {
		return v, fmt.Errorf("%s: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return v, fmt.Errorf("%s: %w", path, err)
	}
	if resp.StatusCode != 200 {
		return v, fmt.Errorf("%s: %d %s", path, resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return v, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// TestImportConcurrentSearches: while one goroutine replaces a product back and forth between
// two versions with different package sets, searches see all of one version or all of the
// other for that product, never a mix.
func TestImportConcurrentSearches(t *testing.T) {
	e := newEnv(t, envOptions{empty: true})
	pathA := writeProduct(t, t.TempDir(), generate(testProduct, 45))
	pathB := writeProduct(t, t.TempDir(), generate(testProduct, 30))
	inA, err := explorersvc.LoadSBOM(pathA)
	if err != nil {
		t.Fatal(err)
	}
	inB, err := explorersvc.LoadSBOM(pathB)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.im.Import(inA); err != nil {
		t.Fatal(err)
	}
	// The product's count in each search under A and under B, from the inputs.
	countOf := func(in explorersvc.Input, match func(spdx.Package) bool) int {
		n := 0
		for _, p := range in.Product.Packages {
			if match(p) {
				n++
			}
		}
		return n
	}
	searches := []struct {
		path  string
		match func(spdx.Package) bool
		files bool
	}{
		{"/api/products/packages", func(spdx.Package) bool { return true }, false},
		{packagesQ("busybox"), func(p spdx.Package) bool { return strings.Contains(p.Name, "busybox") }, false},
		{packagesQ("bash"), func(p spdx.Package) bool { return strings.Contains(p.Name, "bash") }, false},
		{packagesQ("-doc"), func(p spdx.Package) bool { return strings.Contains(p.Name, "-doc") }, false},
		{vcsQ("busybox"), func(p spdx.Package) bool { return p.VCSRepo == "busybox" }, false},
		{vcsQ("pool/coreutils@pocket-1.0"), func(p spdx.Package) bool { return p.VCSRepo == "coreutils" }, false},
	}
	type want struct{ a, b int }
	wants := make([]want, len(searches))
	for i, s := range searches {
		wants[i] = want{countOf(inA, s.match), countOf(inB, s.match)}
		if wants[i].a == wants[i].b {
			t.Fatalf("search %s cannot tell A (%d) from B (%d)", s.path, wants[i].a, wants[i].b)
		}
	}
	// File search: busybox's files are shipped under A only.
	fileA := decode[filesOut](t, e.get(t, filesQ("busybox")).Body).Count
	if fileA == 0 {
		t.Fatalf("A ships no file named busybox")
	}

	var stop atomic.Bool
	var wg sync.WaitGroup
	var imports atomic.Int64
	errs := make(chan error, 100)
	wg.Go(func() {
		defer stop.Store(true)
		for i := 0; i < 40; i++ {
			in := inB
			if i%2 == 1 {
				in = inA
			}
			if _, err := e.im.Import(in); err != nil {
				errs <- err
				return
			}
			imports.Add(1)
		}
	})
	var seenA, seenB atomic.Int64
	for g := 0; g < 4; g++ {
		wg.Go(func() {
			for i := g; !stop.Load() || i < g+len(searches); i++ {
				s := searches[i%len(searches)]
				var list []packageOut
				if strings.Contains(s.path, "vcs-search") {
					ans, err := fetch[vcsOut](e, s.path)
					if err != nil {
						errs <- err
						return
					}
					list = ans.Packages
				} else {
					ans, err := fetch[packagesOut](e, s.path)
					if err != nil {
						errs <- err
						return
					}
					list = ans.Packages
				}
				n := productCount(list, testProduct)
				w := wants[i%len(searches)]
				switch n {
				case w.a:
					seenA.Add(1)
				case w.b:
					seenB.Add(1)
				default:
					errs <- fmt.Errorf("%s: %d packages of %s; A has %d, B %d", s.path, n, testProduct, w.a, w.b)
					return
				}
				files, err := fetch[filesOut](e, filesQ("busybox"))
				if err != nil {
					errs <- err
					return
				}
				if files.Count != fileA && files.Count != 0 {
					errs <- fmt.Errorf("files?q=busybox: %d results; A has %d, B none", files.Count, fileA)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d imports; searches saw A %d times, B %d times", imports.Load(), seenA.Load(), seenB.Load())
	if imports.Load() != 40 {
		t.Errorf("%d of 40 imports done", imports.Load())
	}
	checkInStep(t, e)
	if n := productPackages(t, e.db, testProduct); n != 45 {
		t.Errorf("the last import was A's, the store has %d packages", n)
	}
}

// TestImportConcurrentSearchesWholeRecords is TestImportConcurrentSearches with two versions
// whose shared names carry different records (another seed: other releases, commits,
// disturls), so a search that resolves one version's keys against the other version's records
// shows even where the counts agree.
// It caught searches that asked the index before opening the read transaction: keys of one
// version resolved against the other's records (see keysThenView).
func TestImportConcurrentSearchesWholeRecords(t *testing.T) {
	e := newEnv(t, envOptions{empty: true})
	version := func(seed int64, rpms int) explorersvc.Input {
		p := explorergen.Generate(explorergen.Options{Seed: seed, Packages: 20, FilesPerPackage: 3,
			Products: []explorergen.ProductSpec{{Name: testProduct, Release: "1.0", Arch: "x86_64", Packages: rpms}}})[0]
		in, err := explorersvc.LoadSBOM(writeProduct(t, t.TempDir(), p))
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	inA, inB := version(7, 45), version(8, 30)
	// signature is what a search answers of the product: its packages' names and file names.
	signature := func(in explorersvc.Input, match func(spdx.Package) bool) string {
		var l []string
		for _, p := range in.Product.Packages {
			if match(p) {
				l = append(l, p.Name+"/"+p.Filename)
			}
		}
		slices.Sort(l)
		return strings.Join(l, " ")
	}
	searches := []struct {
		path  string
		vcs   bool
		match func(spdx.Package) bool
	}{
		{packagesQ("b"), false, func(p spdx.Package) bool { return strings.Contains(p.Name, "b") }},
		{vcsQ("bash"), true, func(p spdx.Package) bool { return p.VCSRepo == "bash" }},
	}
	if _, err := e.im.Import(inA); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	wg.Go(func() {
		defer stop.Store(true)
		for i := 0; i < 200 && len(errs) == 0; i++ {
			in := inB
			if i%2 == 1 {
				in = inA
			}
			if _, err := e.im.Import(in); err != nil {
				errs <- err
				return
			}
		}
	})
	for g := 0; g < 4; g++ {
		wg.Go(func() {
			for i := g; !stop.Load(); i++ {
				s := searches[i%len(searches)]
				var list []packageOut
				if s.vcs {
					ans, err := fetch[vcsOut](e, s.path)
					list = ans.Packages
					if err != nil {
						errs <- err
						return
					}
				} else {
					ans, err := fetch[packagesOut](e, s.path)
					list = ans.Packages
					if err != nil {
						errs <- err
						return
					}
				}
				var l []string
				for _, p := range list {
					if p.Product.FullName == testProduct {
						l = append(l, p.PackageName+"/"+p.Filename)
					}
				}
				slices.Sort(l)
				got := strings.Join(l, " ")
				if a, b := signature(inA, s.match), signature(inB, s.match); got != a && got != b {
					select {
					case errs <- fmt.Errorf("%s: a mix of A and B:\n got %s\n   A %s\n   B %s", s.path, got, a, b):
					default:
					}
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
