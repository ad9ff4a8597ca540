package resolve

import (
	"slices"
	"strings"
)

// Activity is what the scheduler knows of a package before deciding whether it is blocked.
type Activity int

// The activities, in the terms of the build service's package check.
const (
	// Skip: decided before any blocking (disabled, excluded, broken, unresolvable, locked):
	// never blocked, and blocks nobody.
	Skip Activity = iota
	// Done: built and up to date (succeeded or failed). Blocked while something it needs is
	// not ready, as in the build service, else it stays as it is.
	Done
	// MetaChange: needs a rebuild because binaries it depends on changed.
	MetaChange
	// SourceChange: needs a build for its own sake (new sources, never built, rebuild asked).
	SourceChange
	// Active: a job exists (scheduled, dispatching, building). Never blocked; not ready for
	// the packages that need it.
	Active
)

// Blocked returns the packages that are blocked and by what, deciding as the build service's
// scheduler does while it walks the repository in build order: a package is blocked when a
// package it needs is not ready (Active, about to be scheduled, or itself blocked), and a
// package that needs a build and is not blocked gets scheduled and so is not ready either.
//
// The value lists the blocking packages, sorted. Within a cycle, members do not block each
// other, except while a member builds: then the cycle's other members wait (so the cycle is
// not rebuilt twice at once); their value lists the not-ready members they need, or is empty
// when only the cycle's builds hold them ("cycle" in BlockedDetails). Once any member of a
// cycle is not ready, every member is not ready for the packages outside that need one.
func Blocked(nodes []Node, activity func(name string) Activity) map[string][]string {
	g := newGraph(nodes)
	act := make([]Activity, len(g.names))
	for i, n := range g.names {
		act[i] = activity(n)
	}
	notReady := make([]bool, len(g.names))
	blocked := map[string][]string{}
	blockers := func(v int, skip func(w int) bool) []string {
		var by []string
		for _, w := range g.deps[v] {
			if notReady[w] && !skip(w) {
				by = append(by, g.names[w])
			}
		}
		slices.Sort(by)
		return by
	}
	for ci, c := range g.comps {
		inCycle := func(w int) bool { return len(c) > 1 && g.comp[w] == ci }
		building, pending := false, []int{}
		// Pass 1 (the only pass outside cycles): jobs, outside blockers, source changes.
		for _, v := range c {
			switch {
			case act[v] == Skip:
				continue
			case act[v] == Active:
				notReady[v], building = true, true
				continue
			}
			if by := blockers(v, inCycle); len(by) > 0 {
				blocked[g.names[v]], notReady[v] = by, true
				continue
			}
			switch {
			case len(c) > 1 && act[v] == SourceChange:
				notReady[v], building = true, true
			case len(c) > 1:
				pending = append(pending, v)
			case act[v] != Done:
				notReady[v] = true
			}
		}
		// Pass 2, cycles only: wait for the cycle's builds, or rebuild what changed.
		for _, v := range pending {
			switch {
			case building:
				by := blockers(v, func(int) bool { return false })
				if by == nil {
					by = []string{}
				}
				blocked[g.names[v]], notReady[v] = by, true
			case act[v] == MetaChange:
				notReady[v] = true
			}
		}
		if len(c) > 1 && slices.ContainsFunc(c, func(v int) bool { return notReady[v] }) {
			for _, v := range c {
				notReady[v] = true
			}
		}
	}
	return blocked
}

// BlockedDetails writes the <details> of a blocked package as the build service does: the
// names joined by ", ", at most ten and then "...", or "cycle" when only its cycle's builds
// block it. The build service names the blocking binaries; pass the binary names of the
// blocking packages (from Result.Deps) for its exact wording, or the package names.
func BlockedDetails(by []string) string {
	if len(by) == 0 {
		return "cycle"
	}
	if len(by) > 10 {
		by = append(slices.Clone(by[:10]), "...")
	}
	return strings.Join(by, ", ")
}
