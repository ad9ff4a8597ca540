package buildlink

import (
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Builds is how the explorer reads a fork's build results: through the build service's own
// domain function (buildsvc.Service.Results), as Who may see them, so a read-protected project
// is "not found" to the explorer exactly as it is to an anonymous osc. It satisfies
// explorersvc.BuildResults.
type Builds struct {
	Farm *farm.Farm
	// Who is the explorer's backend identity; the zero Person is an anonymous non-member, who
	// sees no project with <access><disable/>.
	Who buildstore.Person
}

var _ explorersvc.BuildResults = Builds{}

// PackageResults lists pkg's statuses in project: one per repository and arch the project
// builds and the farm has a status for, in the project's meta order.
func (b Builds) PackageResults(project, pkg string) ([]explorersvc.BuildResult, error) {
	wheres, err := b.Farm.Results(b.Who, project, farm.ResultQuery{Packages: []string{pkg}})
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
