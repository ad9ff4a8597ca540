package search

import (
	"encoding/xml"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/search/xpath"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// /search/repository/id (OBS has only the /id form): the repositories of the projects who may
// see, by project then meta order, answered as <repository project= name=/>. The predicate is
// evaluated on a search document holding what OBS's keys ask (repositoryMatchDoc): the
// repository's project and name as attributes, and its paths. OBS's
// targetproduct/… keys name the products a release target's repository updates; the service
// has no products, so they are taken and match nothing, as OBS's empty join would.

// RepositoryMatch is one repository a search found.
type RepositoryMatch struct {
	Project string
	Name    string
}

type repositoryMatchDoc struct {
	XMLName xml.Name            `xml:"repository"`
	Project string              `xml:"project,attr"`
	Name    string              `xml:"name,attr"`
	Paths   []repositoryPathDoc `xml:"path"`
}

type repositoryPathDoc struct {
	Project    string `xml:"project,attr"`
	Repository string `xml:"repository,attr"`
}

func repositoryMatch(project string, r buildstore.Repository) repositoryMatchDoc {
	d := repositoryMatchDoc{Project: project, Name: r.Name}
	for _, p := range r.Paths {
		d.Paths = append(d.Paths, repositoryPathDoc{Project: p.Project, Repository: p.Repository})
	}
	return d
}

// SearchRepositories answers /search/repository/id: the repositories of projects who may see
// that match, paged. A blank match finds every repository.
func (s *Service) SearchRepositories(who buildstore.Person, match string, page Page) (Found[RepositoryMatch], error) {
	p := pager[RepositoryMatch]{page: page}
	q, err := compileSearch("repository", match, true)
	if err != nil {
		return p.found, err
	}
	err = s.db.View(func(tx kv.Tx) error {
		return buildsvc.EachVisibleProject(tx, who, plannedProjects(q.Plan()), func(prj buildstore.Project) error {
			for _, r := range prj.Repositories {
				ok, err := matches(q, repositoryMatch(prj.Name, r))
				if err != nil {
					return err
				}
				if ok {
					p.add(RepositoryMatch{Project: prj.Name, Name: r.Name})
				}
			}
			return nil
		})
	})
	return p.found, err
}

// plannedProjects are the projects a predicate's plan names (plannedValues of @project), nil
// when it names none: the projects a repository search must look at.
func plannedProjects(plan [][]xpath.Eq) []string {
	names, ok := plannedValues(plan, "@project")
	if ok && names == nil {
		names = []string{}
	}
	if !ok {
		return nil
	}
	return names
}
