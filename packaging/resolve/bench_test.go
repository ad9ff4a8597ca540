package resolve

import (
	"fmt"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/packaging/specfile"
)

// farm is the scheduling load: 1,000 packages in one repository, in chains of depth 10,
// over a base layer of 300 binaries.
type farm struct {
	layers []Layer
	cfg    Config
	deps   [][]specfile.Dep
	nodes  []Node
}

func newFarm(tb testing.TB) farm {
	var f farm
	base := Layer{Project: "Pocket:1.0", Repository: "standard"}
	for i := range 300 {
		b := Binary{Name: fmt.Sprintf("base%d", i), Version: "1.0", Release: "1", Arch: "x86_64", Package: fmt.Sprintf("base%d", i)}
		b.Provides = []specfile.Dep{{Name: fmt.Sprintf("libbase%d.so.1()(64bit)", i)}}
		for _, j := range []int{i / 2, i / 3, i - 1} {
			if j >= 0 && j != i {
				b.Requires = append(b.Requires, specfile.Dep{Name: fmt.Sprintf("libbase%d.so.1()(64bit)", j)})
			}
		}
		base.Binaries = append(base.Binaries, b)
	}
	own := Layer{Project: "devel:tools", Repository: "Pocket_1.0"}
	for i := range 1000 {
		name := fmt.Sprintf("pkg%04d", i)
		own.Binaries = append(own.Binaries,
			Binary{Name: name, Version: "1", Release: "1.1", Arch: "x86_64", Package: name,
				Requires: []specfile.Dep{{Name: fmt.Sprintf("base%d", 100+i%200)}}},
			Binary{Name: name + "-devel", Version: "1", Release: "1.1", Arch: "x86_64", Package: name,
				Requires: []specfile.Dep{{Name: name, Op: "=", Version: "1-1.1"}}})
		d := []specfile.Dep{{Name: fmt.Sprintf("base%d", 50+i%250)}, {Name: fmt.Sprintf("libbase%d.so.1()(64bit)", i%300)}, {Name: "base299", Op: ">=", Version: "1.0"}}
		n := Node{Name: name}
		if i%10 != 0 { // chains of depth 10
			prev := fmt.Sprintf("pkg%04d", i-1)
			d = append(d, specfile.Dep{Name: prev + "-devel"})
			n.BuildDeps = []string{prev}
		}
		f.deps = append(f.deps, d)
		f.nodes = append(f.nodes, n)
	}
	f.layers = []Layer{own, base}
	f.cfg = mustConfig(tb, "devel:tools", "Pocket_1.0", "Preinstall: base0 base1 base2 base3 base4 base5 base6 base7 base8 base9\nRequired: base10 base11 base12\nSupport: base20 base21\nPrefer: base30")
	return f
}

// BenchmarkExpand times a full scheduling pass's expansions (one Pool, 1,000 packages) against
// looking up the same resolved names in a plain map, the least any resolver does.
func BenchmarkExpand(b *testing.B) {
	f := newFarm(b)
	p := NewPool(f.layers, f.cfg, "x86_64")
	closures := make([][]string, len(f.deps))
	for i, d := range f.deps {
		r := p.Expand([]string{f.nodes[i].Name, f.nodes[i].Name + "-devel"}, d)
		if !r.OK {
			b.Fatal(r.Unresolvable)
		}
		for _, bin := range r.Install {
			closures[i] = append(closures[i], bin.Name)
		}
	}
	plain := map[string]Binary{}
	for _, l := range f.layers {
		for _, bin := range l.Binaries {
			if _, ok := plain[bin.Name]; !ok {
				plain[bin.Name] = bin
			}
		}
	}
	var sink int
	bench.Compare(b, 1, func(int) {
		p := NewPool(f.layers, f.cfg, "x86_64")
		for i, d := range f.deps {
			sink += len(p.Expand([]string{f.nodes[i].Name, f.nodes[i].Name + "-devel"}, d).Install)
		}
	}, func(int) {
		for _, c := range closures {
			for _, n := range c {
				sink += len(plain[n].Name)
			}
		}
	})
	_ = sink
}

// BenchmarkOrder times ordering the same 1,000 packages against indexing their names.
func BenchmarkOrder(b *testing.B) {
	f := newFarm(b)
	var sink int
	bench.Compare(b, 1, func(int) {
		order, _ := Order(f.nodes)
		sink += len(order)
	}, func(int) {
		index := make(map[string]int, len(f.nodes))
		for i, n := range f.nodes {
			index[n.Name] = i
		}
		for _, n := range f.nodes {
			for _, d := range n.BuildDeps {
				sink += index[d]
			}
		}
	})
	_ = sink
}

// BenchmarkBlocked times the blocking decision for the 1,000 packages with one chain rebuilding.
func BenchmarkBlocked(b *testing.B) {
	f := newFarm(b)
	act := func(n string) Activity {
		if n == "pkg0500" {
			return SourceChange
		}
		return Done
	}
	for b.Loop() {
		if len(Blocked(f.nodes, act)) != 9 {
			b.Fatal("chain above pkg0500 not blocked")
		}
	}
}

func TestFarmScenario(t *testing.T) {
	f := newFarm(t)
	p := NewPool(f.layers, f.cfg, "x86_64")
	r := p.Expand([]string{"pkg0005", "pkg0005-devel"}, f.deps[5])
	if !r.OK {
		t.Fatal(r.Unresolvable)
	}
	if got := r.LocalPackages("devel:tools", "Pocket_1.0", "pkg0005"); len(got) != 1 || got[0] != "pkg0004" {
		t.Errorf("LocalPackages = %v, want [pkg0004]", got)
	}
}
