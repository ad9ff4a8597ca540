package farm

import (
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The command the build farm does not serve: project move (Admin's, with the schedulers
// stopped, moving a project with its binaries). It is refused with a 400 illegal_request that
// says so (rather than the generic "unsupported command"), after the usual checks, so the user
// learns about a missing project or permission first and knows the command exists. Every other
// farm command is served (farm_control.go, release_*.go, maintenance_*.go).

// ProjectFarmCommands are the project commands that need the build farm, with what each does.
// Read only.
var ProjectFarmCommands = map[string]string{
	"move": "moves a project with its binaries while the schedulers are stopped",
}

// NeedsFarm is the refusal of command cmd, which does what, because it needs the build farm.
func NeedsFarm(cmd, what string) error {
	return buildsvc.BadRequest("illegal_request", "cmd=%s %s: it needs the build farm, which this appliance does not run yet", cmd, what)
}

// RefuseProjectFarmCommand answers a project command of ProjectFarmCommands: move is Admin's
// (its URL names the new project, which need not exist), the others need a maintainer of an
// existing project; then NeedsFarm.
func (s *Farm) RefuseProjectFarmCommand(who buildstore.Person, name, cmd string) error {
	if cmd == "move" {
		if !who.IsAdmin() {
			return buildsvc.Forbidden("cmd_execution_no_permission", "Admin permissions required. STOP SCHEDULER BEFORE.")
		}
		return NeedsFarm(cmd, ProjectFarmCommands[cmd])
	}
	err := s.db.View(func(tx kv.Tx) error {
		_, err := buildsvc.MaintainedProject(tx, who, name, cmd, false)
		return err
	})
	if err != nil {
		return err
	}
	return NeedsFarm(cmd, ProjectFarmCommands[cmd])
}

// RootSourceCommand answers the POST /source?cmd= commands that are not served (path is the
// request's, for the message): a missing cmd, or an unsupported one. branch (by attribute)
// and createmaintenanceincident are served (maintenance_branch.go, maintenance_incident.go).
func RootSourceCommand(cmd, path string) error {
	if cmd == "" {
		return buildsvc.BadRequest("missing_parameter", "POST %s needs a cmd parameter", path)
	}
	return buildsvc.BadRequest("illegal_request", "unsupported POST command %s to %s", cmd, path)
}
