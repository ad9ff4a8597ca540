package resolve

import (
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/packaging/specfile"
)

// Binary is one built binary package a repository offers to builds. It always provides its own
// name at its version (name = [epoch:]version-release) besides its Provides.
type Binary struct {
	Name, Epoch, Version, Release, Arch string
	Provides, Requires                  []specfile.Dep
	Package                             string // the source package that built it
	Project, Repository                 string // where it lives; taken from its Layer when empty
	Filename                            string
}

// EVR returns "[epoch:]version-release", the version the binary provides its name at.
func (b Binary) EVR() string {
	evr := b.Version
	if b.Release != "" {
		evr += "-" + b.Release
	}
	if b.Epoch != "" && b.Epoch != "0" {
		evr = b.Epoch + ":" + evr
	}
	return evr
}

// Layer is one repository of a path chain with its binaries. Expand takes the chain in path
// order: the repository itself first, then each <path> of its meta, recursively expanded (the
// caller expands it). A binary name found in an earlier layer hides the same name in every
// later one, as in the build service ("the first repository in the path wins").
type Layer struct {
	Project, Repository string
	Binaries            []Binary
}

// Result is the outcome of one expansion. Its binaries point into the Pool, which many results
// share: read them, do not modify them.
type Result struct {
	// Install is what a build installs (the build service's get_build): the build
	// dependencies, Preinstall, Required and Support, and everything they require, each
	// resolved to exactly one binary, sorted by name.
	Install []*Binary
	// Deps is what the scheduler counts as the package's dependencies (get_deps): the same
	// closure without Preinstall and Support unless the package needs them itself. It is what
	// builddepinfo's <pkgdep> lists, what blocks the package and what rebuilds it; buildinfo
	// marks the Install entries outside it notmeta="1". Sorted by name.
	Deps []*Binary
	// Unresolvable says why not, in the build service's words: "nothing provides foo",
	// "nothing provides foo >= 2 needed by bar", "have choice for foo needed by bar: a b".
	Unresolvable []string
	OK           bool
}

// Details joins Unresolvable as the build service writes it into a status's <details>.
func (r Result) Details() string { return strings.Join(r.Unresolvable, ", ") }

// LocalPackages returns the source packages of project/repository whose binaries r depends on
// (Deps), sorted and without self: the BuildDeps of the package's Node.
func (r Result) LocalPackages(project, repository, self string) []string {
	var out []string
	for _, b := range r.Deps {
		if b.Project == project && b.Repository == repository && b.Package != "" && b.Package != self {
			out = append(out, b.Package)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Expand resolves the build dependencies of one package against a path chain for an
// architecture. For many packages of one repository, build the Pool once and call its Expand.
func Expand(layers []Layer, cfg Config, arch string, deps []specfile.Dep) Result {
	return NewPool(layers, cfg, arch).Expand(nil, deps)
}

// Pool is the binaries of a path chain as one architecture's builds see them, indexed for
// expansion, with the configuration's rules. It is read-only once built: one Pool can expand
// every package of a repository in a scheduler pass.
type Pool struct {
	cfg      Config
	bins     []poolBinary
	byName   map[string]int32
	provides map[string][]int32 // capability name → binaries providing it at any version
	prefer   map[string]bool
	ignore   map[string]bool
	// contexts names the binaries that "context:name" Prefer/Ignore entries mention, so the
	// hot path builds "context:name" keys only for them.
	contexts map[string]bool
	byRank   []int32 // the binaries in name order
}

type poolBinary struct {
	Binary
	caps    []specfile.Dep // Provides plus the binary's own name = EVR
	reqs    []dep          // Requires, resolved against the pool
	layer   int
	ignored bool // Ignore: lists its name
}

// NewPool indexes the binaries of layers that builds for arch can install (arch itself,
// noarch, or no arch given; never source packages), the first layer winning for a name and,
// within a layer, the highest version. cfg is evaluated for arch.
func NewPool(layers []Layer, cfg Config, arch string) *Pool {
	p := &Pool{cfg: cfg.ForArch(arch), byName: map[string]int32{}, provides: map[string][]int32{},
		prefer: map[string]bool{}, ignore: map[string]bool{}, contexts: map[string]bool{}}
	for li, l := range layers {
		for _, b := range l.Binaries {
			if b.Arch == "src" || b.Arch == "nosrc" || arch != "" && b.Arch != "" && b.Arch != arch && b.Arch != "noarch" {
				continue
			}
			if b.Project == "" && b.Repository == "" {
				b.Project, b.Repository = l.Project, l.Repository
			}
			if i, ok := p.byName[b.Name]; ok {
				old := p.bins[i]
				if old.layer != li || evrcmp(b.EVR(), old.EVR(), false) <= 0 {
					continue
				}
				p.bins[i].Binary = b
				continue
			}
			p.byName[b.Name] = int32(len(p.bins))
			p.bins = append(p.bins, poolBinary{Binary: b, layer: li})
		}
	}
	for i := range p.bins {
		b := &p.bins[i]
		self := specfile.Dep{Name: b.Name}
		if evr := b.EVR(); evr != "" {
			self.Op, self.Version = "=", evr
		}
		b.caps = append(append(make([]specfile.Dep, 0, len(b.Provides)+1), self), b.Provides...)
		for j, c := range b.caps {
			if j > 0 && slices.ContainsFunc(b.caps[:j], func(o specfile.Dep) bool { return o.Name == c.Name }) {
				continue
			}
			p.provides[c.Name] = append(p.provides[c.Name], int32(i))
		}
	}
	p.settle()
	for _, s := range p.cfg.Prefer {
		p.prefer[s] = true
		if ctx, _, ok := strings.Cut(strings.TrimPrefix(s, "-"), ":"); ok {
			p.contexts[ctx] = true
		}
	}
	for _, s := range p.cfg.Ignore {
		ctx, names, ok := strings.Cut(s, ":")
		if !ok {
			p.ignore[s] = true
			continue
		}
		p.contexts[ctx] = true
		for _, n := range strings.FieldsFunc(names, func(r rune) bool { return r == ',' || r == ':' }) {
			p.ignore[ctx+":"+n] = true
		}
	}
	for i := range p.bins {
		b := &p.bins[i]
		b.ignored = p.ignore[b.Name]
		b.reqs = make([]dep, len(b.Requires))
		for j, r := range b.Requires {
			d := newDep(r)
			d.prov, d.resolved = p.whatProvides(&d), true
			d.skip = p.ignore[r.Name] || strings.HasPrefix(r.Name, "rpmlib(") || strings.HasPrefix(r.Name, "/") && len(p.provides[r.Name]) == 0
			b.reqs[j] = d
		}
	}
	return p
}

// settle ranks the binaries by name, so results sort by comparing numbers.
func (p *Pool) settle() {
	order := make([]int32, len(p.bins))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(p.bins[a].Name, p.bins[b].Name) })
	p.byRank = order
}

// Binary returns the binary the pool resolves name to.
func (p *Pool) Binary(name string) (Binary, bool) {
	i, ok := p.byName[name]
	if !ok {
		return Binary{}, false
	}
	return p.bins[i].Binary, true
}

// Expand resolves one package's build dependencies. subpacks names the binaries the package
// builds itself: they are not taken from Required/Support (the build service's "empty Keep"
// mode), or, when the configuration has Keep:, never installed unless kept. A dependency whose
// name starts with "-" keeps that binary out (as #!BuildIgnore does); "!" conflicts are not
// modelled and are dropped.
func (p *Pool) Expand(subpacks []string, deps []specfile.Dep) Result {
	var pos []dep
	neg := map[string]bool{}
	for _, d := range deps {
		switch {
		case strings.HasPrefix(d.Name, "-"):
			neg[depString(specfile.Dep{Name: d.Name[1:], Op: d.Op, Version: d.Version})] = true
		case strings.HasPrefix(d.Name, "!") || d.Name == "":
		default:
			pos = append(pos, newDep(d))
		}
	}
	var res Result
	installed, errs := p.getDeps(subpacks, pos, neg)
	if len(errs) > 0 {
		res.Unresolvable = errs
		return res
	}
	res.Deps = p.binaries(installed)
	installed, errs = p.getBuild(subpacks, pos, neg)
	if len(errs) > 0 {
		res.Deps, res.Unresolvable = nil, errs
		return res
	}
	res.Install = p.binaries(installed)
	res.OK = true
	return res
}

// binaries returns the pool binaries of a set sorted by name.
func (p *Pool) binaries(set binarySet) []*Binary {
	out := make([]*Binary, 0, set.n)
	for _, i := range p.byRank {
		if set.has[i] {
			out = append(out, &p.bins[i].Binary)
		}
	}
	return out
}

// binarySet is a set of pool binaries and its size.
type binarySet struct {
	has []bool
	n   int
}

// dep is a dependency with its text as the build service writes it in messages.
type dep struct {
	specfile.Dep
	text string
	// For the Requires of pool binaries, settled once when the pool is built: the providers,
	// and whether the dependency is skipped whoever needs it (Ignore: name, rpmlib(…), a file
	// nothing provides).
	prov     []int32
	resolved bool
	skip     bool
}

func newDep(d specfile.Dep) dep { return dep{Dep: d, text: depString(d)} }

func depString(d specfile.Dep) string {
	if d.Op == "" {
		return d.Name
	}
	return d.Name + " " + d.Op + " " + d.Version
}

func nameDeps(list []string) []dep {
	out := make([]dep, len(list))
	for i, s := range list {
		out[i] = newDep(specfile.Dep{Name: s})
	}
	return out
}

// getBuild is what a build installs: the dependencies, Preinstall, Required and Support.
func (p *Pool) getBuild(subpacks []string, deps []dep, neg map[string]bool) (binarySet, []string) {
	extra := append(slices.Clone(p.cfg.Required), p.cfg.Support...)
	neg, extra = p.keep(subpacks, deps, neg, extra)
	all := append(slices.Clone(deps), nameDeps(p.cfg.Preinstall)...)
	all = append(all, nameDeps(extra)...)
	all = p.substitute(dropNeg(all, neg))
	return p.expand(dropNeg(all, neg), neg)
}

// getDeps is what the scheduler counts as dependencies: the dependencies and Required, minus
// the Preinstall and Support binaries the package does not ask for itself.
func (p *Pool) getDeps(subpacks []string, deps []dep, neg map[string]bool) (binarySet, []string) {
	neg, extra := p.keep(subpacks, deps, neg, slices.Clone(p.cfg.Required))
	all := append(slices.Clone(deps), nameDeps(extra)...)
	all = p.substitute(dropNeg(all, neg))
	all = dropNeg(all, neg)
	base := map[string]bool{}
	for _, n := range append(slices.Clone(p.cfg.Preinstall), p.cfg.Support...) {
		base[n] = true
	}
	for _, d := range all {
		delete(base, d.text)
	}
	if len(p.cfg.IgnoreRebuild) > 0 {
		neg = maps2(neg)
		for _, n := range p.cfg.IgnoreRebuild {
			neg[n] = true
		}
	}
	got, errs := p.expand(all, neg)
	for n := range base {
		if i, ok := p.byName[n]; ok && got.has != nil && got.has[i] {
			got.has[i] = false
			got.n--
		}
	}
	return got, errs
}

func maps2(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m)+4)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// keep applies Keep: with it, the package's own binaries that are not kept become negative
// dependencies; without it, they are just not taken from Required/Support.
func (p *Pool) keep(subpacks []string, deps []dep, neg map[string]bool, extra []string) (map[string]bool, []string) {
	if len(p.cfg.Keep) == 0 {
		own := map[string]bool{}
		for _, s := range subpacks {
			own[s] = true
		}
		return neg, slices.DeleteFunc(extra, func(s string) bool { return own[s] })
	}
	kept := map[string]bool{}
	for _, d := range deps {
		kept[d.text] = true
	}
	for _, s := range append(slices.Clone(p.cfg.Keep), p.cfg.Preinstall...) {
		kept[s] = true
	}
	neg = maps2(neg)
	for _, s := range subpacks {
		if !kept[s] {
			neg[s] = true
		}
	}
	return neg, extra
}

func dropNeg(list []dep, neg map[string]bool) []dep {
	if len(neg) == 0 {
		return list
	}
	return slices.DeleteFunc(list, func(d dep) bool { return neg[d.text] })
}

// substitute applies Substitute: a dependency whose name has a substitution is replaced by the
// substitutes (and kept when it substitutes itself), recursively, each text once.
func (p *Pool) substitute(list []dep) []dep {
	if len(p.cfg.Substitute) == 0 {
		return list
	}
	var out []dep
	done := map[string]bool{}
	queue := slices.Clone(list)
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if done[d.text] {
			continue
		}
		done[d.text] = true
		subst, ok := p.cfg.Substitute[d.Name]
		if !ok {
			out = append(out, d)
			continue
		}
		queue = append(nameDeps(subst), queue...)
		if slices.Contains(subst, d.Name) {
			out = append(out, d)
		}
	}
	return out
}
