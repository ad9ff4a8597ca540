package explorersvc

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/jobs"
)

// TestFollowProducts: the follower, run by the env's jobs as serve runs it, through a product
// package's life on the farm: built, unchanged, rebuilt, broken, fixed, unreadable, named like
// a product imported from a file, unpublished, a backend that panics, its project made hidden.
// A product imported from a file (with the same name prefix) is never touched, and a hidden
// project's media are never even listed.
func TestFollowProducts(t *testing.T) {
	e, b := newFollowEnv(t)
	const (
		fromFile = "Pocket-1.0-x86_64-Build1.0"
		a        = "Pocket-1.0-x86_64-Build1.1"
		rebuilt  = "Pocket-1.0-x86_64-Build1.2"
		third    = "Pocket-1.0-x86_64-Build1.3"
		fourth   = "Pocket-1.0-x86_64-Build1.4"
		secret   = "Secret-1.0-x86_64-Build1.1"
	)
	filePath := writeProduct(t, t.TempDir(), generate(fromFile, 30))
	mustImport(t, e.im, filePath)
	b.publish(secretProducts, medium(secretProducts, secret, 30)) // Projects does not list it
	fileSource, _ := filepath.Abs(filePath)

	steps := []struct {
		name   string
		change func()
		want   map[string]string // product → source ("": not imported)
		log    string            // a line the tick logged…
		logs   int               // …this many times by now (0: at least once)
		read   bool              // the tick opened a medium's files
		wrote  bool              // the tick changed the explorer's data
	}{
		{"a published product is imported", func() { b.publish(productsProject, medium(productsProject, a, 45)) },
			map[string]string{a: farmSourceOf, fromFile: fileSource, secret: ""}, "explorer: product imported from the build service", 1, true, true},
		{"another change, the same digest: not read again", b.touch,
			map[string]string{a: farmSourceOf}, "", 0, false, false},
		{"no change: no pass", func() {}, map[string]string{a: farmSourceOf}, "", 0, false, false},
		{"a rebuild replaces the older build", func() { b.publish(productsProject, medium(productsProject, rebuilt, 30)) },
			map[string]string{a: "", rebuilt: farmSourceOf, fromFile: fileSource}, "replaced=" + a, 1, true, true},
		{"a medium that does not parse: logged, the product stays", func() {
			b.publish(productsProject, broken(medium(productsProject, third, 45)))
		}, map[string]string{rebuilt: farmSourceOf, third: ""}, "its files do not parse", 1, true, false},
		{"it is not read again until it changes", b.touch, map[string]string{rebuilt: farmSourceOf}, "its files do not parse", 1, false, false},
		{"fixed, it replaces the older build", func() { b.publish(productsProject, medium(productsProject, third, 45)) },
			map[string]string{rebuilt: "", third: farmSourceOf, fromFile: fileSource}, "replaced=" + rebuilt, 1, true, true},
		{"unreadable files: logged, the product stays", func() {
			b.setFlag(&b.unreadable, true)
			b.publish(productsProject, medium(productsProject, fourth, 30))
		}, map[string]string{third: farmSourceOf, fourth: ""}, "its files could not be read", 1, true, false},
		{"read again on the next change", func() { b.setFlag(&b.unreadable, false) },
			map[string]string{third: "", fourth: farmSourceOf}, "replaced=" + third, 1, true, true},
		{"a medium named like a product from a file leaves that one alone", func() {
			b.publish(productsProject, medium(productsProject, fromFile, 45))
		}, map[string]string{fromFile: fileSource, fourth: farmSourceOf}, "the product is imported from another source", 1, false, false},
		{"and says so once", b.touch, map[string]string{fromFile: fileSource}, "the product is imported from another source", 1, false, false},
		{"unpublished: the farm's products go, the file's stays", func() { b.publish(productsProject) },
			map[string]string{fourth: "", fromFile: fileSource}, "no longer published", 1, false, true},
		{"a backend that panics is an error, not a crash", func() {
			b.setFlag(&b.panics, true)
			b.publish(productsProject, medium(productsProject, a, 45))
		}, map[string]string{a: ""}, "the product follower failed: the published tree is gone", 1, true, false},
		{"and the next change imports", func() { b.setFlag(&b.panics, false) }, map[string]string{a: farmSourceOf}, "", 0, true, true},
		{"its project made hidden: its products go", func() {
			b.mu.Lock()
			delete(b.projects, productsProject)
			b.mu.Unlock()
			b.touch()
		}, map[string]string{a: "", fromFile: fileSource}, "no longer published", 0, false, true},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			gen, opened := generation(e.db), b.opened.Load()
			s.change()
			e.tick()
			got := sources(t, e)
			for product, want := range s.want {
				if got[product] != want {
					t.Errorf("%s: source %q, want %q", product, got[product], want)
				}
			}
			if read := b.opened.Load() != opened; read != s.read {
				t.Errorf("files read: %v, want %v", read, s.read)
			}
			if wrote := generation(e.db) != gen; wrote != s.wrote {
				t.Errorf("data changed: %v, want %v", wrote, s.wrote)
			}
			logs := e.logs.String()
			if n := strings.Count(logs, s.log); s.log != "" && (n == 0 || (s.logs > 0 && n != s.logs)) {
				t.Errorf("the log holds %q %d times, want %d:\n%s", s.log, n, s.logs, logs)
			}
			checkInStep(t, e)
		})
	}
	if n := b.listedCount(secretProducts); n != 0 {
		t.Errorf("a hidden project's media were listed %d times", n)
	}
	if n := b.listedCount(productsProject); n != len(steps)-2 { // every step but "no change" and the last
		t.Errorf("media listed %d times over %d steps", n, len(steps))
	}
}

// TestFollowProductsFailedRefreshKeepsProducts: while the cache's last refresh failed somewhere,
// a farm product of a project missing from the cache stays (the project may only have failed
// its first read); the farm's product of a listed project that no longer publishes it goes.
func TestFollowProductsFailedRefreshKeepsProducts(t *testing.T) {
	e, b := newFollowEnv(t)
	b.publish(productsProject, medium(productsProject, testProduct, 30))
	e.tick()
	if productPackages(t, e.db, testProduct) != 30 {
		t.Fatal("the medium was not imported")
	}
	b.mu.Lock()
	b.failing[productsProject] = true
	b.mu.Unlock()
	e.im.results.snap.Store(nil) // as at a start whose first read of the project fails
	b.touch()
	e.tick()
	if productPackages(t, e.db, testProduct) != 30 {
		t.Error("a project whose results failed to load lost its products")
	}
	b.mu.Lock()
	b.failing[productsProject] = false
	b.mu.Unlock()
	b.publish(productsProject)
	e.tick()
	if n := productPackages(t, e.db, testProduct); n != -1 {
		t.Errorf("an unpublished product stayed (%d packages)", n)
	}
}

// TestFollowProductsNewestBuild: a source that publishes several builds of one product at once
// (an older build not yet cleaned up beside its rebuild) gets its newest build imported, by
// number (Build1.10 after Build1.9), and the next passes write nothing: the builds do not take
// turns.
func TestFollowProductsNewestBuild(t *testing.T) {
	e, b := newFollowEnv(t)
	const older, newest = "Pocket-1.0-x86_64-Build1.9", "Pocket-1.0-x86_64-Build1.10"
	other := medium(productsProject, "Pocket-1.0-aarch64-Build1.1", 30)
	other.Arch = "aarch64"
	b.publish(productsProject, medium(productsProject, newest, 30), medium(productsProject, older, 45), other)
	e.tick()
	got := sources(t, e)
	if got[newest] == "" || got[older] != "" || got[other.Name] == "" {
		t.Fatalf("imported %v, want %s and %s", got, newest, other.Name)
	}
	gen := generation(e.db)
	for range 3 {
		b.touch()
		e.tick()
	}
	if generation(e.db) != gen {
		t.Errorf("passes over unchanged media wrote %d times", generation(e.db)-gen)
	}
}

func TestCompareBuilds(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"Build1.10", "Build1.9", 1},
		{"Build1.2", "Build1.10", -1},
		{"Build2.1", "Build2.1", 0},
		{"Build01.1", "Build1.1", 0},
		{"Snapshot20240401", "Snapshot20240331", 1},
		{"Build1.1.1", "Build1.1", 1},
		{"Build1a", "Build1b", -1},
	}
	for _, c := range cases {
		if got := compareBuilds(c.a, c.b); got != c.want {
			t.Errorf("compareBuilds(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := compareBuilds(c.b, c.a); got != -c.want {
			t.Errorf("compareBuilds(%s, %s) = %d, want %d", c.b, c.a, got, -c.want)
		}
	}
}

// detachedMedia is mediaBackend as a slow (remote) backend says it is.
type detachedMedia struct{ *mediaBackend }

func (detachedMedia) Detached() bool { return true }

// TestFollowProductsDetached: with a detached backend the follower runs after each refresh
// beside the job runner, as the refresh does.
func TestFollowProductsDetached(t *testing.T) {
	e, b := newFollowEnv(t)
	e.im.results, e.im.follower = nil, nil
	if err := e.im.UseBackend(detachedMedia{b}, nil); err != nil {
		t.Fatal(err)
	}
	e.jobs = &jobs.Runner{}
	e.im.RegisterJobs(e.jobs, "", 0)
	b.publish(productsProject, medium(productsProject, testProduct, 30))
	e.tick() // starts one refresh and pass beside the runner, and returns
	deadline := time.Now().Add(10 * time.Second)
	for productPackages(t, e.db, testProduct) != 30 {
		if time.Now().After(deadline) {
			t.Fatal("the detached follower imported nothing in 10 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	e.im.follower.mu.Lock() // the pass is over before the store and index close
	e.im.follower.mu.Unlock()
}
