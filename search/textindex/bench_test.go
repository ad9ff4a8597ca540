package textindex

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// benchNames are n realistic distinct package names: stems with prefixes, suffixes and
// numbers, as 100,000 packages over three products have about a third as many.
func benchNames(n int) []string {
	r := rand.New(rand.NewPCG(1, 2))
	stems := []string{"bash", "zlib", "openssl", "python", "perl", "ruby", "gtk", "qt", "kde", "gnome", "xorg", "mesa", "llvm", "gcc", "glibc", "systemd", "curl", "wget", "vim", "emacs"}
	prefixes := []string{"", "lib", "python3-", "perl-", "ruby-", "golang-", "rust-", "texlive-"}
	suffixes := []string{"", "-devel", "-doc", "-lang", "-32bit", "-tools", "-plugins"}
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		name := fmt.Sprintf("%s%s%d%s", prefixes[r.IntN(len(prefixes))], stems[r.IntN(len(stems))], r.IntN(5000), suffixes[r.IntN(len(suffixes))])
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

func benchIndex(b *testing.B, names []string) *Index {
	b.Helper()
	ix, _, err := Open("")
	if err != nil {
		b.Fatal(err)
	}
	err = ix.Rebuild(func(yield func(Doc) error) error {
		for _, n := range names {
			if err := yield(NameDoc(n)); err != nil {
				return err
			}
		}
		return nil
	}, 1)
	if err != nil {
		b.Fatal(err)
	}
	return ix
}

// BenchmarkNames: the name search over 35,000 distinct names (the names of 100,000 packages),
// through Names (query, confirmation, keys) and as the raw bleve request alone.
func BenchmarkNames(b *testing.B) {
	ix := benchIndex(b, benchNames(35_000))
	var took, raw []time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := ix.Names("zlib77"); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(t0))
		t0 = time.Now()
		if _, err := ix.Raw(NameQuery("zlib77")); err != nil {
			b.Fatal(err)
		}
		raw = append(raw, time.Since(t0))
	}
	slices.Sort(took)
	slices.Sort(raw)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)/2])/float64(raw[len(raw)/2]), "x-raw")
}

// BenchmarkRebuild: name documents indexed per second, in batches, in memory.
func BenchmarkRebuild(b *testing.B) {
	names := benchNames(10_000)
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		benchIndex(b, names)
		b.ReportMetric(10_000/time.Since(t0).Seconds(), "docs/s")
	}
}
