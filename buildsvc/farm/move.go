package farm

import (
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// MoveRequest is POST /source/<Project>?cmd=move&oproject=<OProject>[&comment=]: rename project
// OProject to Project.
type MoveRequest struct {
	Project, OProject, Comment string
}

// MoveProject moves a project under a new name with its packages and their histories, metas,
// attributes, comments, build results and signing key (buildstore.MoveProject says what moves
// and what keeps the old name), as OBS's cmd=move does: Admin's only, to a name no project
// has, and — the real service asks the admin to stop the schedulers first — never while the
// farm has a job of the project scheduled or building, since the job would finish under a name
// that is gone. Every package's meta history gets a revision saying so (the meta now names the
// new project), as the real service stores each package again; the farm republishes the
// project's repositories under the new name on its next pass. Check, move and meta records are
// one write transaction: a failure leaves nothing half moved.
func (s *Farm) MoveProject(who buildstore.Person, req MoveRequest) error {
	if !who.IsAdmin() {
		return buildsvc.Forbidden("cmd_execution_no_permission", "Admin permissions required. STOP SCHEDULER BEFORE.")
	}
	if req.OProject == "" {
		return buildsvc.BadRequest("missing_parameter", "cmd=move needs an oproject parameter: the project to move")
	}
	if !buildstore.ValidProjectName(req.Project) {
		return buildsvc.BadRequest("invalid_project_name", "invalid project name '%s'", req.Project)
	}
	comment := req.Comment
	if comment == "" {
		comment = "Project move from " + req.OProject + " to " + req.Project
	}
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		if buildstore.CheckProject(tx, req.Project) == nil {
			return buildsvc.BadRequest("project_exists", "Target project exists already.")
		}
		if _, err := buildstore.GetProject(tx, req.OProject); err != nil {
			return buildsvc.NotFoundAs(err, "unknown_project")
		}
		if n, err := activeJobs(tx, req.OProject); err != nil {
			return err
		} else if n > 0 {
			return buildsvc.BadRequest("move_failed", "Move operation failed: project %s has %d build jobs scheduled or building; "+
				"wait until they finish, or disable its build flag, then move it", req.OProject, n)
		}
		if err := buildstore.MoveProject(tx, req.OProject, req.Project); err != nil {
			return err
		}
		return recordMoved(tx, req.Project, who.Login, comment, now)
	})
}

// activeJobs counts project's jobs the farm has scheduled or is building, in every where.
func activeJobs(tx kv.Tx, project string) (int, error) {
	wheres, err := buildstore.FarmWheres(tx, project)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, w := range wheres {
		list, err := buildstore.Statuses(tx, w)
		if err != nil {
			return 0, err
		}
		for _, st := range list {
			if st.Code == buildstore.CodeScheduled || st.Code == buildstore.CodeBuilding {
				n++
			}
		}
	}
	return n, nil
}

// recordMoved appends each live package's meta, which now names project, to its meta history.
func recordMoved(tx kv.Tx, project, user, comment string, now time.Time) error {
	pkgs, err := buildstore.Packages(tx, project)
	if err != nil {
		return err
	}
	for _, k := range pkgs {
		if err := buildsvc.RecordMeta(tx, k, user, comment, now); err != nil {
			return err
		}
	}
	return nil
}
