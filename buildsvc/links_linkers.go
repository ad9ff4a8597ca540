package buildsvc

import (
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// Who links here (cmd=showlinked).

// LinkingPackages lists the packages whose newest tree links to project/pkg, as
// {project, package} pairs.
func (s *Service) LinkingPackages(who buildstore.Person, project, pkg string) ([][2]string, error) {
	var out [][2]string
	err := s.db.View(func(tx *bbolt.Tx) error {
		if _, _, err := LookupPackage(tx, project, pkg); err != nil {
			return err
		}
		var err error
		out, err = buildstore.LinkingPackages(tx, project, pkg)
		return err
	})
	return out, err
}

// LinkingProjects names the projects whose meta links to project. Anyone may ask (the service
// checks no permission for it).
func (s *Service) LinkingProjects(who buildstore.Person, project string) ([]string, error) {
	var out []string
	err := s.db.View(func(tx *bbolt.Tx) error {
		if _, err := buildstore.GetProject(tx, project); err != nil {
			return NotFoundAs(err, "unknown_project")
		}
		var err error
		out, err = buildstore.LinkingProjects(tx, project)
		return err
	})
	return out, err
}
