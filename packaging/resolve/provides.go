package resolve

import "github.com/pocketforge/pocketforge/packaging/specfile"

// WhatProvides returns the binaries of the pool that satisfy d, in the pool's order: what
// fileinfo_ext shows as the providers of each requirement of a binary.
func (p *Pool) WhatProvides(d specfile.Dep) []Binary {
	dd := newDep(d)
	var out []Binary
	for _, i := range p.whatProvides(&dd) {
		out = append(out, p.bins[i].Binary)
	}
	return out
}

// Binaries returns every binary of the pool (one per name: the first layer's, and there the
// highest version), sorted by name: what a repository offers to builds.
func (p *Pool) Binaries() []Binary {
	out := make([]Binary, 0, len(p.byRank))
	for _, i := range p.byRank {
		out = append(out, p.bins[i].Binary)
	}
	return out
}

// WhatRequires returns the binaries of the pool with a requirement that d, provided, satisfies:
// what fileinfo_ext shows as <requiredby> of each capability a binary provides.
func (p *Pool) WhatRequires(d specfile.Dep) []Binary {
	var out []Binary
	for _, i := range p.byRank {
		for _, r := range p.bins[i].Requires {
			if r.Name == d.Name && (r.Op == "" || rangesMeet(d.Op, d.Version, r.Op, r.Version)) {
				out = append(out, p.bins[i].Binary)
				break
			}
		}
	}
	return out
}
