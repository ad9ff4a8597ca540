package main

import (
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// explorerBuilds is how the explorer reads build results: through the build service's own
// domain function (buildsvc.Service.Results), as who may see them, so a read-protected
// project is "not found" to the explorer exactly as it is to an anonymous osc. It lives here,
// in the package that wires the domains, because no domain imports another; it satisfies
// explorersvc.BuildResults, which a results cache can satisfy instead.
type explorerBuilds struct {
	build *buildsvc.Service
	// who is the explorer's backend identity; the zero Person is an anonymous non-member, who
	// sees no project with <access><disable/>.
	who buildstore.Person
}

var _ explorersvc.BuildResults = explorerBuilds{}

// PackageResults lists pkg's statuses in project: one per repository and arch the project
// builds and the farm has a status for, in the project's meta order.
func (b explorerBuilds) PackageResults(project, pkg string) ([]explorersvc.BuildResult, error) {
	wheres, err := b.build.Results(b.who, project, buildsvc.ResultQuery{Packages: []string{pkg}})
	if err != nil {
		return nil, err
	}
	var out []explorersvc.BuildResult
	for _, w := range wheres {
		for _, st := range w.Statuses {
			out = append(out, explorersvc.BuildResult{Project: w.Where.Project, Package: st.Package,
				Repository: w.Where.Repository, Arch: w.Where.Arch, Status: st.Code})
		}
	}
	return out, nil
}
