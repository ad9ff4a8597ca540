package farm

import (
	"github.com/pocketforge/pocketforge/buildsvc"
)

// RootSourceCommand answers the POST /source?cmd= commands that are not served (path is the
// request's, for the message): a missing cmd, or an unsupported one. branch (by attribute)
// and createmaintenanceincident are served (maintenance_branch.go, maintenance_incident.go).
func RootSourceCommand(cmd, path string) error {
	if cmd == "" {
		return buildsvc.BadRequest("missing_parameter", "POST %s needs a cmd parameter", path)
	}
	return buildsvc.BadRequest("illegal_request", "unsupported POST command %s to %s", cmd, path)
}
