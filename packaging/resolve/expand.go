package resolve

import (
	"slices"
	"strings"
)

// This file holds the expansion itself, following the build service's algorithm (Build::Expand)
// in outcome and wording: dependencies named exactly after one binary are installed directly;
// then, round by round, what has one provider is installed, then negative and single positive
// Prefer: entries decide, then the first Prefer: entry among several; what is still open is a
// "have choice" error. Conflicts, Recommends and Supplements are not modelled (Binary carries
// none).

// relation flags of the version operators: greater 1, equal 2, less 4.
func relation(op string) int {
	switch op {
	case ">":
		return 1
	case "=", "==":
		return 2
	case ">=":
		return 3
	case "<":
		return 4
	case "<=":
		return 6
	}
	return 0
}

// rangesMeet reports whether a provided version range (pOp pVer) meets a required one.
func rangesMeet(pOp, pVer, dOp, dVer string) bool {
	if pOp == "" {
		return true // an unversioned provide satisfies any version, as in rpm
	}
	pf, df := relation(pOp), relation(dOp)
	if pf == 0 || df == 0 {
		return false
	}
	if pf&df&5 != 0 {
		return true // both open towards the same side
	}
	if pVer == dVer {
		return pf&df&2 != 0
	}
	want := df ^ 5
	if df == 2 {
		want = pf
	}
	if pf&2 == 0 {
		want &= 5
	}
	return want&(1<<(evrcmp(pVer, dVer, true)+1)) != 0
}

// whatProvides returns the binaries providing d.
func (p *Pool) whatProvides(d *dep) []int32 {
	if d.resolved {
		return d.prov
	}
	cands := p.provides[d.Name]
	if d.Op == "" || len(cands) == 0 {
		return cands
	}
	var out []int32
	for _, i := range cands {
		for _, c := range p.bins[i].caps {
			if c.Name == d.Name && rangesMeet(c.Op, c.Version, d.Op, d.Version) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// need is an open dependency and the binary that needs it (-1: the package being built).
type need struct {
	d    *dep
	from int32
}

// expander is the state of one expansion.
type expander struct {
	p         *Pool
	neg       map[string]bool // names kept out by negative dependencies
	installed []bool
	count     int
	todo      []need
	spare     []need // the other todo buffer, so passes do not allocate
	inst      []int32
	errs      []string
	contexts  map[string]bool // binaries with "context:name" entries in Prefer, Ignore or neg
}

// expand resolves deps to the set of binaries to install, or says why it cannot.
func (p *Pool) expand(deps []dep, neg map[string]bool) (binarySet, []string) {
	x := &expander{p: p, neg: neg, installed: make([]bool, len(p.bins)), contexts: p.contexts,
		todo: make([]need, 0, 256), spare: make([]need, 0, 256)}
	copied := false
	for k := range neg {
		if ctx, _, ok := strings.Cut(k, ":"); ok {
			if !copied {
				x.contexts, copied = maps2(p.contexts), true
			}
			x.contexts[ctx] = true
		}
	}
	for i, d := range deps {
		// A dependency naming exactly one of its providers installs that one, whatever else
		// provides it.
		var exact []int32
		for _, i := range p.whatProvides(&deps[i]) {
			if p.bins[i].Name == d.Name {
				exact = append(exact, i)
			}
		}
		if len(exact) == 1 {
			x.inst = append(x.inst, exact[0])
		} else {
			x.todo = append(x.todo, need{&deps[i], -1})
		}
	}
	for len(x.todo) > 0 || len(x.inst) > 0 {
		x.install()
		for _, pass := range []int{0, 1, 2, 3, 6} {
			x.pass(pass)
			if len(x.inst) > 0 {
				break
			}
		}
		if len(x.errs) > 0 {
			return binarySet{}, x.errs
		}
	}
	return binarySet{x.installed, x.count}, nil
}

// install installs the chosen binaries and queues what they require.
func (x *expander) install() {
	p := x.p
	for _, i := range x.inst {
		if x.installed[i] {
			continue
		}
		x.installed[i] = true
		x.count++
		b := &p.bins[i]
		ctx := x.contexts[b.Name]
		for j := range b.reqs {
			r := &b.reqs[j]
			n := r.Name
			if r.skip || len(x.neg) > 0 && x.neg[n] || ctx && (p.ignore[b.Name+":"+n] || x.neg[b.Name+":"+n]) {
				continue
			}
			x.todo = append(x.todo, need{r, i})
		}
	}
	x.inst = x.inst[:0]
}

// pass is one pass over the open dependencies; what it cannot decide yet stays open.
func (x *expander) pass(pass int) {
	p := x.p
	open := x.todo
	x.todo = x.spare[:0]
	defer func() { x.spare = open[:0] }()
	for _, n := range open {
		q := p.whatProvides(n.d)
		if slices.ContainsFunc(q, func(i int32) bool { return x.installed[i] }) {
			continue
		}
		from, ctx := "", ""
		if n.from >= 0 {
			from = p.bins[n.from].Name
			if x.contexts[from] {
				ctx = from + ":"
			}
			if slices.ContainsFunc(q, func(i int32) bool {
				b := &p.bins[i]
				return b.ignored || len(x.neg) > 0 && x.neg[b.Name] || ctx != "" && (p.ignore[ctx+b.Name] || x.neg[ctx+b.Name])
			}) {
				continue
			}
		}
		neededBy := func() string {
			if from == "" {
				return ""
			}
			return " needed by " + from
		}
		if len(q) == 0 {
			if n.from >= 0 && (strings.HasPrefix(n.d.Name, "rpmlib(") || strings.HasPrefix(n.d.Name, "/")) {
				continue
			}
			x.errs = append(x.errs, "nothing provides "+n.d.text+neededBy())
			continue
		}
		if len(q) > 1 && pass < 2 {
			x.todo = append(x.todo, n)
			continue
		}
		if len(q) > 1 {
			q = x.decide(q, ctx, pass)
		}
		if len(q) == 1 {
			x.inst = append(x.inst, q[0])
			continue
		}
		if pass < 6 {
			x.todo = append(x.todo, n)
			continue
		}
		choice := make([]string, len(q))
		for i, j := range q {
			choice[i] = p.bins[j].Name
		}
		slices.Sort(choice)
		x.errs = append(x.errs, "have choice for "+n.d.text+neededBy()+": "+strings.Join(choice, " "))
	}
}

// decide narrows several providers with Prefer:. From pass 2 on, "-name" entries drop
// providers and a single preferred provider wins; from pass 3 on, among several preferred ones
// the one listed first wins.
func (x *expander) decide(q []int32, ctx string, pass int) []int32 {
	p := x.p
	if kept := slices.DeleteFunc(slices.Clone(q), func(i int32) bool {
		name := p.bins[i].Name
		return p.prefer["-"+name] || p.prefer["-"+ctx+name]
	}); len(kept) > 0 {
		q = kept
	}
	preferred := slices.DeleteFunc(slices.Clone(q), func(i int32) bool {
		name := p.bins[i].Name
		return !p.prefer[name] && !p.prefer[ctx+name]
	})
	if len(preferred) == 1 || pass < 3 || len(preferred) == 0 {
		if len(preferred) == 1 {
			return preferred
		}
		return q
	}
	for _, name := range p.cfg.Prefer {
		for _, i := range preferred {
			if p.bins[i].Name == name {
				return []int32{i}
			}
		}
	}
	return q
}
