package search

import (
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The binary owner search (/search/owner?binary=, osc maintainer and bugowner), as OBS's
// OwnerSearch::Assignee does it:
//   - the packages that built the binary: in each project of the root's link order, those
//     whose built binaries (the farm's records, every repository and architecture) include an
//     RPM of that name — and, where the farm has built nothing of a package yet, the package
//     of that very name (OBS asks its published binaries; a package not built yet would
//     escape a fresh service's search altogether);
//   - for each, its owner: with devel on, first the package it is developed in (its devel
//     package, or its project's devel project's package of the same name, followed to the
//     end of the chain), then the package itself; in either, the package's holders of the
//     filter's roles, else its project's (the owner then names no package);
//   - no owner there: the package of the same name in the projects its project links to, in
//     link order, the first with an owner (the last with -1);
//   - limit N stops after N owners, 0 takes all, -1 keeps only the deepest match (the last in
//     link order). A package is looked at once.

// binaryOwners answers a binary search in one root.
func binaryOwners(tx kv.Tx, who buildstore.Person, r ownerRoot, binary string, limit int) ([]Owner, error) {
	checked := map[string]bool{}
	var out []Owner
	var deepest *Owner
	for _, p := range r.projects {
		pkgs, err := builtBy(tx, p, binary)
		if err != nil {
			return nil, err
		}
		for _, k := range pkgs {
			o, ok := packageOwner(tx, who, r, k, checked, limit < 0)
			if !ok {
				continue
			}
			if limit < 0 {
				deepest = &o
				continue
			}
			out = append(out, o)
			if limit > 0 && len(out) >= limit {
				return out, nil
			}
		}
	}
	if deepest != nil {
		out = append(out, *deepest)
	}
	return out, nil
}

// builtBy lists the packages of p that built binary (see the file's comment), in the order the
// farm keeps them (repository, architecture, package), each once.
func builtBy(tx kv.Tx, p buildstore.Project, binary string) ([]buildstore.Package, error) {
	var names []string
	for _, repo := range p.Repositories {
		for _, arch := range repo.Archs {
			bins, err := buildstore.Binaries(tx, buildstore.Where{Project: p.Name, Repository: repo.Name, Arch: arch}, "")
			if err != nil {
				return nil, err
			}
			for _, b := range bins {
				name, _, _ := strings.Cut(b.Package, ":") // a multibuild flavour builds for its package
				if b.Name == binary && !slices.Contains(names, name) {
					names = append(names, name)
				}
			}
		}
	}
	var out []buildstore.Package
	for _, name := range names {
		if k, err := buildstore.GetPackage(tx, p.Name, name); err == nil {
			out = append(out, k)
		}
	}
	if slices.Contains(names, binary) {
		return out, nil
	}
	if k, err := buildstore.GetPackage(tx, p.Name, binary); err == nil && !builtAnything(tx, p, binary) {
		out = append(out, k)
	}
	return out, nil
}

// builtAnything reports whether the farm holds a binary of pkg in any where of p.
func builtAnything(tx kv.Tx, p buildstore.Project, pkg string) bool {
	for _, repo := range p.Repositories {
		for _, arch := range repo.Archs {
			if buildstore.HasBinaries(tx, buildstore.Where{Project: p.Name, Repository: repo.Name, Arch: arch}, pkg) {
				return true
			}
		}
	}
	return false
}

// packageOwner is the owner of k (see the file's comment); ok is false when k was looked at
// already or nobody owns it anywhere. deepest keeps looking down the links for the last owner.
func packageOwner(tx kv.Tx, who buildstore.Person, r ownerRoot, k buildstore.Package, checked map[string]bool, deepest bool) (Owner, bool) {
	key := k.Project + "\x00" + k.Name
	if checked[key] {
		return Owner{}, false
	}
	checked[key] = true
	if o, ok := packageOwnerOf(tx, who, r, k); ok {
		return o, true
	}
	prj, err := buildstore.GetProject(tx, k.Project)
	if err != nil {
		return Owner{}, false
	}
	var found Owner
	var ok bool
	for _, p := range expandedProjects(tx, who, prj) {
		other, err := buildstore.GetPackage(tx, p.Name, k.Name)
		key := p.Name + "\x00" + k.Name
		if err != nil || checked[key] {
			continue
		}
		checked[key] = true
		if o, hit := packageOwnerOf(tx, who, r, other); hit {
			found, ok = o, true
			if !deepest {
				break
			}
		}
	}
	return found, ok
}

// packageOwnerOf is the owner of k itself: with devel on, its devel package's first.
func packageOwnerOf(tx kv.Tx, who buildstore.Person, r ownerRoot, k buildstore.Package) (Owner, bool) {
	if r.devel {
		if d, ok := develPackage(tx, k); ok {
			if o, ok := containerOwner(tx, who, r, d); ok {
				return o, true
			}
		}
	}
	return containerOwner(tx, who, r, k)
}

// containerOwner is the holders of r's roles in k, else in k's project; with an empty filter, k
// itself. A package of a project hidden from who has none.
func containerOwner(tx kv.Tx, who buildstore.Person, r ownerRoot, k buildstore.Package) (Owner, bool) {
	prj, err := buildstore.GetProject(tx, k.Project)
	if err != nil || buildsvc.HiddenFrom(tx, who, prj) {
		return Owner{}, false
	}
	o := Owner{RootProject: r.project.Name, Project: k.Project, Package: k.Name}
	if len(r.filter) == 0 {
		return o, true
	}
	if o.Holders = roleHolders(tx, k.Persons, k.Groups, r.filter); len(o.Holders) > 0 {
		return o, true
	}
	o.Package = ""
	o.Holders = roleHolders(tx, prj.Persons, prj.Groups, r.filter)
	return o, len(o.Holders) > 0
}

// develPackage follows k's devel package — or, without one, its project's devel project's
// package of the same name — to the end of the chain; ok is false when k has none, the chain
// leads to a missing package, or loops.
func develPackage(tx kv.Tx, k buildstore.Package) (buildstore.Package, bool) {
	seen := map[string]bool{k.Project + "\x00" + k.Name: true}
	cur, moved := k, false
	for {
		next := buildstore.Devel{}
		if cur.Devel != nil && cur.Devel.Project != "" {
			next = *cur.Devel
		} else if p, err := buildstore.GetProject(tx, cur.Project); err == nil && p.Devel != "" {
			next.Project = p.Devel
		} else {
			return cur, moved
		}
		if next.Package == "" {
			next.Package = cur.Name
		}
		key := next.Project + "\x00" + next.Package
		if seen[key] {
			return cur, moved
		}
		seen[key] = true
		d, err := buildstore.GetPackage(tx, next.Project, next.Package)
		if err != nil {
			return buildstore.Package{}, false
		}
		cur, moved = d, true
	}
}
