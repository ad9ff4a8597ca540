package maintenance

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Maintenance incidents (cmd=createmaintenanceincident), as OBS makes them
// (MaintenanceIncident.build_maintenance_incident): a project of kind "maintenance" collects
// incidents; each incident is a project "<maintenance project>:<n>" of kind
// "maintenance_incident" where an update is prepared (its packages, its patchinfo) before it
// is released. POST /source/M?cmd=createmaintenanceincident makes one below M; POST
// /source?cmd=createmaintenanceincident below the project carrying the attribute
// OBS:MaintenanceProject.
//
// The new incident project gets:
//   - the number n one above the highest incident of M ever made — live or deleted — starting
//     at 0 as OBS's incident counter does (so a number is never handed out twice);
//   - M's persons and groups with their roles, and who as bugowner when no person is one;
//   - builds and publishing disabled (the packages and patchinfo brought in enable their own,
//     as OBS's maintenance workflow does), and access disabled with noaccess;
//   - no repositories: OBS adds them when packages are branched or submitted into the
//     incident (mbranch, maintenance requests); here they are added through the meta.
//
// Permission: a maintainer of M (or Admin); M must be of kind maintenance, else OBS's 400
// incident_has_no_maintenance_project.

// MaintenanceProjectAttribute marks the maintenance project the global command uses.
const MaintenanceProjectAttribute = "OBS:MaintenanceProject"

// CreateMaintenanceIncident creates an incident below project ("": the project carrying
// MaintenanceProjectAttribute) for who and returns its name.
func (s *Service) CreateMaintenanceIncident(who buildstore.Person, project string, noAccess bool) (string, error) {
	var name string
	now := s.Clock().Now()
	err := s.Store().Write(func(tx kv.Tx) error {
		var err error
		name, err = CreateIncident(tx, who, project, noAccess, now)
		return err
	})
	return name, err
}

// CreateIncident is CreateMaintenanceIncident inside tx (accepting a maintenance_incident
// request creates one too).
func CreateIncident(tx kv.Tx, who buildstore.Person, project string, noAccess bool, now time.Time) (string, error) {
	m, err := maintenanceProject(tx, who, project)
	if err != nil {
		return "", err
	}
	if m.Kind != "maintenance" {
		return "", buildsvc.BadRequest("incident_has_no_maintenance_project", "incident has no maintenance project")
	}
	n, err := nextIncident(tx, m.Name)
	if err != nil {
		return "", err
	}
	name := m.Name + ":" + strconv.Itoa(n)
	p := buildstore.Project{Name: name, Kind: "maintenance_incident", Persons: slices.Clone(m.Persons), Groups: slices.Clone(m.Groups),
		Flags: []buildstore.Flag{{Name: "build", Status: "disable"}, {Name: "publish", Status: "disable"}}, Created: now}
	if noAccess {
		p.Flags = append(p.Flags, buildstore.Flag{Name: "access", Status: "disable"})
	}
	if !slices.ContainsFunc(p.Persons, func(r buildstore.Role) bool { return r.Role == "bugowner" }) {
		p.Persons = append(p.Persons, buildstore.Role{ID: who.Login, Role: "bugowner"})
	}
	return name, buildstore.PutProject(tx, p)
}

// maintenanceProject is the project an incident goes below: the one named, which who must
// maintain, or the one carrying MaintenanceProjectAttribute, which who must be able to modify.
func maintenanceProject(tx kv.Tx, who buildstore.Person, project string) (buildstore.Project, error) {
	if project != "" {
		return buildsvc.MaintainedProject(tx, who, project, "createmaintenanceincident", true)
	}
	projects, err := buildstore.Projects(tx)
	if err != nil {
		return buildstore.Project{}, err
	}
	ns, attr, _ := strings.Cut(MaintenanceProjectAttribute, ":")
	for _, p := range projects {
		if _, err := buildstore.GetAttribute(tx, p.Name, "", "", ns, attr); err != nil || buildsvc.HiddenFrom(tx, who, p) {
			continue
		}
		if !buildsvc.Maintains(tx, who, p.Persons, p.Groups) {
			return p, buildsvc.Forbidden("modify_project_no_permission", "no permission to modify project '%s'", p.Name)
		}
		if p.Locked {
			return p, buildsvc.Forbidden("project_locked", "The target project is locked")
		}
		return p, nil
	}
	return buildstore.Project{}, fault.NotFound("unknown_project", "There is no project flagged as maintenance project on server and no target in request defined.")
}

// nextIncident is the number of m's next incident: one above the highest of its live and
// deleted incidents, 0 for the first.
func nextIncident(tx kv.Tx, m string) (int, error) {
	next := 0
	for _, list := range []func(kv.Tx) ([]buildstore.Project, error){buildstore.Projects, buildstore.DeletedProjects} {
		projects, err := list(tx)
		if err != nil {
			return 0, err
		}
		for _, p := range projects {
			rest, ok := strings.CutPrefix(p.Name, m+":")
			if n, err := strconv.Atoi(rest); ok && err == nil && n >= next && strconv.Itoa(n) == rest {
				next = n + 1
			}
		}
	}
	return next, nil
}
