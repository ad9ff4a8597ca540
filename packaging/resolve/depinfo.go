package resolve

import "slices"

// DepSource is what builddepinfo needs to know of one package of a repository.
type DepSource struct {
	Name    string   // the package
	Source  string   // its source name (the spec's Name:); Name when empty
	Deps    []string // the binaries it depends on (the names of Result.Deps)
	Subpkgs []string // the binaries it builds
}

// DepInfo is a builddepinfo document (GET/POST /build/<project>/<repository>/<arch>/
// _builddepinfo). The lead renders it as the build service does, with no XML namespace:
//
//	<builddepinfo>
//	  <package name="NAME">
//	    <source>SOURCE</source>
//	    <pkgdep>DEP</pkgdep>        (one per entry of PkgDep)
//	    <subpkg>BINARY</subpkg>     (one per entry of SubPkg)
//	  </package>                    (one per entry of Packages)
//	  <cycle>
//	    <package>NAME</package>     (one per member)
//	  </cycle>                      (one per entry of Cycles; omitted when none)
//	</builddepinfo>
//
// For view=order a package is just <package name="NAME"/> (Source, PkgDep and SubPkg are
// empty) and Packages is in build order. An empty answer is <builddepinfo/>.
type DepInfo struct {
	Packages []DepInfoPackage
	Cycles   [][]string
}

// DepInfoPackage is one <package> of a builddepinfo.
type DepInfoPackage struct {
	Name   string
	Source string
	PkgDep []string
	SubPkg []string
}

// BuildDepInfo answers builddepinfo for a repository's packages. view is "" (PkgDep lists the
// binaries each package depends on), "pkgnames" (the packages of the repository that build
// them, sorted), "revpkgnames" (the packages that depend on it, sorted) or "order" (packages in
// build order); other views answer as "", as the build service does. only, when not empty,
// keeps those packages (for view=order: orders just those). Packages are sorted by name;
// SubPkg is sorted with the source name first when the package builds a binary of that name,
// or is just the source name when it builds none.
func BuildDepInfo(pkgs []DepSource, view string, only []string) DepInfo {
	pkgs = slices.Clone(pkgs)
	slices.SortFunc(pkgs, func(a, b DepSource) int { return compareStrings(a.Name, b.Name) })
	keep := func(name string) bool { return len(only) == 0 || slices.Contains(only, name) }
	// Which packages build a binary (the build service's subpack2pack).
	builders := map[string][]string{}
	for _, p := range pkgs {
		if len(p.Subpkgs) == 0 {
			builders[sourceName(p)] = append(builders[sourceName(p)], p.Name)
		}
		for _, b := range p.Subpkgs {
			builders[b] = append(builders[b], p.Name)
		}
	}
	pkgDeps := func(p DepSource) []string {
		var out []string
		for _, d := range p.Deps {
			out = append(out, builders[d]...)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	var nodes []Node
	for _, p := range pkgs {
		if view != "order" || keep(p.Name) {
			nodes = append(nodes, Node{Name: p.Name, BuildDeps: pkgDeps(p)})
		}
	}
	order, cycles := Order(nodes)
	info := DepInfo{Cycles: cycles}
	if view == "order" {
		for _, n := range order {
			info.Packages = append(info.Packages, DepInfoPackage{Name: n})
		}
		return info
	}
	reverse := map[string][]string{}
	if view == "revpkgnames" {
		for _, n := range nodes {
			for _, d := range n.BuildDeps {
				reverse[d] = append(reverse[d], n.Name)
			}
		}
	}
	for _, p := range pkgs {
		if !keep(p.Name) {
			continue
		}
		dp := DepInfoPackage{Name: p.Name, Source: sourceName(p), PkgDep: slices.Clone(p.Deps)}
		switch view {
		case "pkgnames":
			dp.PkgDep = pkgDeps(p)
		case "revpkgnames":
			dp.PkgDep = reverse[p.Name]
			slices.Sort(dp.PkgDep)
			dp.PkgDep = slices.Compact(dp.PkgDep)
		}
		dp.SubPkg = slices.Sorted(slices.Values(p.Subpkgs))
		if len(dp.SubPkg) == 0 {
			dp.SubPkg = []string{dp.Source}
		} else if i := slices.Index(dp.SubPkg, dp.Source); i > 0 {
			dp.SubPkg = append([]string{dp.Source}, slices.Delete(dp.SubPkg, i, i+1)...)
		}
		info.Packages = append(info.Packages, dp)
	}
	return info
}

func sourceName(p DepSource) string {
	if p.Source != "" {
		return p.Source
	}
	return p.Name
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
