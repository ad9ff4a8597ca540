package search

import (
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// SearchMissingOwners answers /search/missing_owner, as OBS's OwnerSearch::Missing does: per
// root, the package names of the root and the projects it links to that nobody owns — no
// confirmed person and no group with a confirmed member holds a role of the filter on a
// package of that name in any of those projects, nor on a project holding one; packages of
// maintenance release projects count as owned, `_product:*` packages are not listed. Each
// name is answered where the root finds it first (its own package, else the first linked
// project's), by root, then name.
//
// As in OBS, devel packages are not followed (it marks that as missing, a FIXME), `limit` is
// checked but does not cut the answer, and an empty filter counts no one as owner.
func (s *Service) SearchMissingOwners(who buildstore.Person, q OwnerQuery) ([]Owner, error) {
	if _, err := ownerLimit(q.Limit, 0); err != nil {
		return nil, err
	}
	var out []Owner
	err := s.db.View(func(tx kv.Tx) error {
		roots, err := ownerRoots(tx, who, q)
		if err != nil {
			return err
		}
		for _, r := range roots {
			found, err := missingOwners(tx, r)
			if err != nil {
				return err
			}
			out = append(out, found...)
		}
		return nil
	})
	return out, err
}

// missingOwners lists the unowned package names of one root (see SearchMissingOwners).
func missingOwners(tx kv.Tx, r ownerRoot) ([]Owner, error) {
	owned := map[string]bool{}
	first := map[string]string{} // name → the project the root finds it in
	var names []string
	for _, p := range r.projects {
		pkgs, err := buildstore.Packages(tx, p.Name)
		if err != nil {
			return nil, err
		}
		whole := p.Kind == "maintenance_release" || len(roleHolders(tx, p.Persons, p.Groups, r.filter)) > 0
		for _, k := range pkgs {
			if strings.HasPrefix(k.Name, "_product:") {
				continue
			}
			if _, ok := first[k.Name]; !ok {
				first[k.Name] = p.Name
				names = append(names, k.Name)
			}
			if whole || len(roleHolders(tx, k.Persons, k.Groups, r.filter)) > 0 {
				owned[k.Name] = true
			}
		}
	}
	slices.Sort(names)
	var out []Owner
	for _, name := range names {
		if !owned[name] {
			out = append(out, Owner{RootProject: r.project.Name, Project: first[name], Package: name})
		}
	}
	return out, nil
}
