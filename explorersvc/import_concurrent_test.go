package explorersvc

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pocketforge/pocketforge/fixtures/explorergen"
	"github.com/pocketforge/pocketforge/spdx"
)

// Imports while searches run: a search sees a product before or after an import, whole.

// searchFunc is one search as a goroutine runs it: it reports, never fails the test.
type searchFunc func() ([]Entry, error)

// packagesOf and vcsOf are the package and git searches for q.
func packagesOf(e *env, q string) searchFunc {
	return func() ([]Entry, error) {
		found, err := e.im.SearchPackages(q, q != "")
		return found.Entries, err
	}
}

func vcsOf(e *env, q string) searchFunc {
	return func() ([]Entry, error) {
		found, err := e.im.SearchVCS(q)
		return found.Entries, err
	}
}

// TestImportConcurrentSearches: while one goroutine replaces a product back and forth between
// two versions with different package sets, searches see all of one version or all of the
// other for that product, never a mix.
func TestImportConcurrentSearches(t *testing.T) {
	e := newEnv(t, envOptions{})
	pathA := writeProduct(t, t.TempDir(), generate(testProduct, 45))
	pathB := writeProduct(t, t.TempDir(), generate(testProduct, 30))
	inA, err := LoadSBOM(pathA)
	if err != nil {
		t.Fatal(err)
	}
	inB, err := LoadSBOM(pathB)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.im.Import(inA); err != nil {
		t.Fatal(err)
	}
	// The product's count in each search under A and under B, from the inputs.
	countOf := func(in Input, match func(spdx.Package) bool) int {
		n := 0
		for _, p := range in.Product.Packages {
			if match(p) {
				n++
			}
		}
		return n
	}
	searches := []struct {
		path   string
		search searchFunc
		match  func(spdx.Package) bool
	}{
		{"every package", packagesOf(e, ""), func(spdx.Package) bool { return true }},
		{"packages busybox", packagesOf(e, "busybox"), func(p spdx.Package) bool { return strings.Contains(p.Name, "busybox") }},
		{"packages bash", packagesOf(e, "bash"), func(p spdx.Package) bool { return strings.Contains(p.Name, "bash") }},
		{"packages -doc", packagesOf(e, "-doc"), func(p spdx.Package) bool { return strings.Contains(p.Name, "-doc") }},
		{"git busybox", vcsOf(e, "busybox"), func(p spdx.Package) bool { return p.VCSRepo == "busybox" }},
		{"git pool/coreutils@pocket-1.0", vcsOf(e, "pool/coreutils@pocket-1.0"), func(p spdx.Package) bool { return p.VCSRepo == "coreutils" }},
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
	fileA := len(e.files(t, "busybox"))
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
				list, err := s.search()
				if err != nil {
					errs <- fmt.Errorf("%s: %w", s.path, err)
					return
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
				files, err := e.im.SearchFiles("busybox")
				if err != nil {
					errs <- fmt.Errorf("files busybox: %w", err)
					return
				}
				if n := len(files.Results); n != fileA && n != 0 {
					errs <- fmt.Errorf("files?q=busybox: %d results; A has %d, B none", n, fileA)
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
	e := newEnv(t, envOptions{})
	version := func(seed int64, rpms int) Input {
		p := explorergen.Generate(explorergen.Options{Seed: seed, Packages: 20, FilesPerPackage: 3,
			Products: []explorergen.ProductSpec{{Name: testProduct, Release: "1.0", Arch: "x86_64", Packages: rpms}}})[0]
		in, err := LoadSBOM(writeProduct(t, t.TempDir(), p))
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	inA, inB := version(7, 45), version(8, 30)
	// signature is what a search answers of the product: its packages' names and file names.
	signature := func(in Input, match func(spdx.Package) bool) string {
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
		path   string
		search searchFunc
		match  func(spdx.Package) bool
	}{
		{"packages b", packagesOf(e, "b"), func(p spdx.Package) bool { return strings.Contains(p.Name, "b") }},
		{"git bash", vcsOf(e, "bash"), func(p spdx.Package) bool { return p.VCSRepo == "bash" }},
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
				list, err := s.search()
				if err != nil {
					errs <- fmt.Errorf("%s: %w", s.path, err)
					return
				}
				var l []string
				for _, p := range list {
					if p.Product.FullName == testProduct {
						l = append(l, p.Package.Name+"/"+p.Package.Filename)
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
