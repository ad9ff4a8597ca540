package buildsvc

import (
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The project and package listings, as who may see them: a project hidden from who leaves
// every listing, also as the origin of packages inherited through a project link.

// Projects names the live projects who may see; with deleted, the deleted projects who may
// restore instead. The real service shows deleted projects to Admin only (403 for others);
// here each person sees the deleted projects they may restore (Admin all of them), so
// `osc ls -D /` followed by `osc undelete` works for the owner of a home project too, and
// nobody learns of others' deleted projects.
func (s *Service) Projects(who buildstore.Person, deleted bool) (names []string, err error) {
	err = s.db.View(func(tx kv.Tx) error {
		if !deleted {
			all, err := buildstore.Projects(tx)
			for _, p := range all {
				if !HiddenFrom(tx, who, p) {
					names = append(names, p.Name)
				}
			}
			return err
		}
		all, err := buildstore.DeletedProjects(tx)
		for _, p := range all {
			if MayCreateProject(tx, who, p.Name) {
				names = append(names, p.Name)
			}
		}
		return err
	})
	return names, err
}

// Packages names a project's packages; with deleted, its deleted ones (tombstones), also of a
// deleted project that who may restore.
//
// The live packages of a project are remembered until the next write (s.packageNames): a
// listing is what osc and scripts ask for most. The names returned are shared: callers must not
// modify them.
func (s *Service) Packages(who buildstore.Person, project string, deleted bool) (names []string, err error) {
	if !deleted {
		return s.packageNames.Get(project, func(tx kv.Tx) ([]string, error) {
			if err := buildstore.CheckProject(tx, project); err != nil {
				return nil, NotFoundAs(err, "unknown_project")
			}
			return buildstore.PackageNames(tx, project, false)
		})
	}
	err = s.db.View(func(tx kv.Tx) error {
		if err := buildstore.CheckProject(tx, project); err != nil {
			if _, gone := deletedProjectFor(tx, who, project); !deleted || gone != nil {
				return NotFoundAs(err, "unknown_project")
			}
		}
		names, err = buildstore.PackageNames(tx, project, deleted)
		return err
	})
	return names, err
}

// ExpandedPackages lists a project's packages followed by those it inherits through project
// links (buildstore.ExpandedPackages: depth first in link order, a name already seen wins,
// sorted by name), as who may see them: a package inherited from a project hidden from who, or
// whose sources who may not read, is left out — the listing would otherwise show a protected
// project's packages to anyone who links to it. The project's own packages are all listed, as
// without expand.
func (s *Service) ExpandedPackages(who buildstore.Person, project string) (out []buildstore.LinkedPackage, err error) {
	err = s.db.View(func(tx kv.Tx) error {
		if err := buildstore.CheckProject(tx, project); err != nil {
			return NotFoundAs(err, "unknown_project")
		}
		out, err = VisibleLinkedPackages(tx, who, project)
		return err
	})
	return out, err
}

// deletedProjectFor reads a tombstone for who: 404 unknown_project when there is none or who
// may not restore it (a deleted project is hidden like a missing one).
func deletedProjectFor(tx kv.Tx, who buildstore.Person, name string) (buildstore.Project, error) {
	p, err := buildstore.GetDeletedProject(tx, name)
	if err != nil || !MayCreateProject(tx, who, name) {
		return buildstore.Project{}, NotFoundAs(store.NotFoundf("Project not found: %s", name), "unknown_project")
	}
	return p, nil
}
