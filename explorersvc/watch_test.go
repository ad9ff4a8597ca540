package explorersvc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWatchSPDXDir: the --spdx-dir job, run by the env's jobs on the env's clock, through a
// directory's life: products dropped in, changed, broken, fixed, removed.
func TestWatchSPDXDir(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "products")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, envOptions{spdxDir: dir, every: 30 * time.Second})
	// A product imported from elsewhere: the watcher must leave it alone.
	const leap = "Leap-16.0-x86_64-Build42.1"
	mustImport(t, e.im, filepath.Join(samples, "SYNTHETIC_obs-product-shape.spdx.json"))

	const nested = "Pocket-1.0-x86_64-Build8.1"
	pPath := filepath.Join(dir, testProduct, testProduct+SBOMSuffix)
	steps := []struct {
		name    string
		change  func(t *testing.T)
		advance time.Duration
		want    map[string]int // product → packages (-1: not imported)
		sameGen bool           // nothing was written
		log     string         // a line the run logged
		logs    int            // how often the log must hold it by now (0: at least once)
	}{
		{"an empty directory", nil, 0, map[string]int{testProduct: -1, leap: 4}, true, "", 0},
		{"a new product waits for the interval", func(t *testing.T) { writeProduct(t, dir, generate(testProduct, 45)) },
			10 * time.Second, map[string]int{testProduct: -1}, true, "", 0},
		{"and is imported on the next run", nil, 20 * time.Second, map[string]int{testProduct: 45, leap: 4}, false,
			"explorer: product imported", 1},
		{"a product in a subdirectory", func(t *testing.T) { writeProduct(t, filepath.Join(dir, "nested", "deeper"), generate(nested, 30)) },
			30 * time.Second, map[string]int{testProduct: 45, nested: 30}, false, "product=" + nested, 1},
		{"nothing changed: nothing is written", nil, 30 * time.Second, map[string]int{testProduct: 45, nested: 30}, true,
			"explorer: product imported", 2},
		{"a changed file is imported again", func(t *testing.T) { writeProduct(t, dir, generate(testProduct, 30)) },
			30 * time.Second, map[string]int{testProduct: 30, nested: 30}, false, "explorer: product imported", 3},
		{"a broken file is logged, the product stays", func(t *testing.T) {
			data, _ := os.ReadFile(pPath)
			os.WriteFile(pPath, data[:len(data)/2], 0o644)
		}, 30 * time.Second, map[string]int{testProduct: 30, nested: 30, leap: 4}, true, "explorer: product file not imported", 1},
		{"it is not read again until it changes", nil, 30 * time.Second, map[string]int{testProduct: 30}, true,
			"explorer: product file not imported", 1},
		{"fixed, it is imported", func(t *testing.T) { writeProduct(t, dir, generate(testProduct, 45)) },
			30 * time.Second, map[string]int{testProduct: 45}, false, "explorer: product imported", 4},
		{"a broken new product: nothing of it", func(t *testing.T) {
			p := generate("Pocket-1.0-x86_64-Build9.1", 30)
			p.SPDX = p.SPDX[:100]
			writeProduct(t, dir, p)
		}, 30 * time.Second, map[string]int{"Pocket-1.0-x86_64-Build9.1": -1, testProduct: 45}, true, "Build9.1.spdx.json error=", 1},
		{"a removed file removes its product", func(t *testing.T) { os.RemoveAll(filepath.Join(dir, "nested")) },
			30 * time.Second, map[string]int{nested: -1, testProduct: 45, leap: 4}, false, "explorer: product removed, its file is gone", 1},
		{"a vanished directory fails the job and removes nothing", func(t *testing.T) { os.RemoveAll(dir) },
			30 * time.Second, map[string]int{testProduct: 45, leap: 4}, true, "background job failed", 1},
		{"the directory back without the product: it goes", func(t *testing.T) { os.Mkdir(dir, 0o755) },
			30 * time.Second, map[string]int{testProduct: -1, leap: 4}, false, "explorer: product removed, its file is gone", 2},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if s.change != nil {
				s.change(t)
			}
			gen := generation(e.db)
			e.clk.Advance(s.advance)
			e.jobs.RunOnce(e.clk.Now(), e.log)
			for product, n := range s.want {
				if got := productPackages(t, e.db, product); got != n {
					t.Errorf("%s: %d packages, want %d\nlog:\n%s", product, got, n, e.logs)
				}
			}
			if same := generation(e.db) == gen; same != s.sameGen {
				t.Errorf("generation %d → %d", gen, generation(e.db))
			}
			checkInStep(t, e)
			if s.log != "" {
				got := strings.Count(e.logs.String(), s.log)
				if got == 0 || s.logs > 0 && got != s.logs {
					t.Errorf("the log holds %q %d times, want %d:\n%s", s.log, got, s.logs, e.logs)
				}
			}
		})
	}
	// What the watcher imported is what the searches serve.
	t.Run("search after the watcher", func(t *testing.T) { wantCount(t, "pocket-cli", e.packages(t, "pocket-cli"), 0) })
	t.Run("the sample stays searchable", func(t *testing.T) { wantCount(t, "legacy-tool", e.packages(t, "legacy-tool"), 1) })
}

// TestWatchInterval: the job looks at the directory once per interval, however often it runs.
func TestWatchInterval(t *testing.T) {
	cases := []struct {
		name    string
		every   time.Duration
		advance []time.Duration // between runs, after a first run on an empty directory
		want    []bool          // whether the product is in after each
	}{
		{"every run within the interval waits", 30 * time.Second,
			[]time.Duration{time.Second, 10 * time.Second, 18 * time.Second, time.Second}, []bool{false, false, false, true}},
		{"a run past the interval scans", time.Minute, []time.Duration{2 * time.Minute}, []bool{true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			e := newEnv(t, envOptions{spdxDir: dir, every: c.every})
			e.jobs.RunOnce(e.clk.Now(), e.log)
			writeProduct(t, dir, generate(testProduct, 30))
			for i, d := range c.advance {
				e.clk.Advance(d)
				e.jobs.RunOnce(e.clk.Now(), e.log)
				if in := productPackages(t, e.db, testProduct) == 30; in != c.want[i] {
					t.Fatalf("after run %d (+%v): imported %v, want %v", i+1, d, in, c.want[i])
				}
			}
		})
	}
}

// TestWatchWithoutDir: no --spdx-dir, no job.
func TestWatchWithoutDir(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.jobs.RunOnce(e.clk.Now(), e.log)
	if log := e.logs.String(); strings.Contains(log, "explorer:") || strings.Contains(log, "job") {
		t.Errorf("a job ran without --spdx-dir:\n%s", log)
	}
}
