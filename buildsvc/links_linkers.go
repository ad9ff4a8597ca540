package buildsvc

import (
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Who links here (cmd=showlinked) and what a project inherits through its project links
// (?expand=1). Both name other projects, so both leave out the projects hidden from the
// caller: a hidden project's name and packages show nowhere to a non-member.

// LinkingPackages lists the packages whose newest tree links to project/pkg, as
// {project, package} pairs, leaving out those in projects hidden from who.
func (s *Service) LinkingPackages(who buildstore.Person, project, pkg string) ([][2]string, error) {
	var out [][2]string
	err := s.db.View(func(tx kv.Tx) error {
		if _, _, err := LookupPackage(tx, project, pkg); err != nil {
			return err
		}
		list, err := buildstore.LinkingPackages(tx, project, pkg)
		for _, pk := range list {
			if VisibleProject(tx, who, pk[0]) == nil {
				out = append(out, pk)
			}
		}
		return err
	})
	return out, err
}

// LinkingProjects names the projects whose meta links to project, leaving out those hidden
// from who. Anyone may ask (the service checks no permission for it).
func (s *Service) LinkingProjects(who buildstore.Person, project string) ([]string, error) {
	var out []string
	err := s.db.View(func(tx kv.Tx) error {
		if err := buildstore.CheckProject(tx, project); err != nil {
			return NotFoundAs(err, "unknown_project")
		}
		names, err := buildstore.LinkingProjects(tx, project)
		for _, n := range names {
			if VisibleProject(tx, who, n) == nil {
				out = append(out, n)
			}
		}
		return err
	})
	return out, err
}

// VisibleLinkedPackages is the package list of ?expand=1 for who: the project's packages
// followed by those it inherits through project links (buildstore.ExpandedPackages), where a
// linked project hidden from who counts as missing — skipped with the projects only it links
// to, so neither its name nor its packages show, and a package of the same name further down
// the links is listed instead. The project itself is the caller's to check.
func VisibleLinkedPackages(tx kv.Tx, who buildstore.Person, project string) ([]buildstore.LinkedPackage, error) {
	return buildstore.ExpandedPackagesSkipping(tx, project, func(p buildstore.Project) bool { return HiddenFrom(tx, who, p) })
}
