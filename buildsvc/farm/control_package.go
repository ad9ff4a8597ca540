package farm

import (
	"slices"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// buildCommands are the commands ControlBuilds runs.
var buildCommands = []string{CmdRebuild, CmdAbortBuild, CmdRestartBuild, CmdWipe, CmdUnpublish}

// checkBuildCommand refuses a command that is none of buildCommands, before anything is read,
// so a misspelt command never passes for one that matched nothing.
func checkBuildCommand(cmd string) error {
	if cmd == "" {
		return buildsvc.BadRequest("missing_parameter", "POST /build/<project> needs a cmd parameter")
	}
	if !slices.Contains(buildCommands, cmd) {
		return buildsvc.BadRequest("illegal_request", "unsupported POST command %s", cmd)
	}
	return nil
}

// ControlPackageBuilds answers the package commands POST /source/<project>/<pkg>?cmd=rebuild
// and cmd=wipe: ControlBuilds on the package's builds in the repositories and archs named
// (none: all). The package must exist (404 unknown_package), unlike a /build filter, which
// may match nothing.
func (s *Farm) ControlPackageBuilds(who buildstore.Person, project, pkg, cmd string, repos, archs []string) error {
	err := s.db.View(func(tx kv.Tx) error {
		if _, err := buildsvc.ReadableProject(tx, who, project); err != nil {
			return err
		}
		_, err := buildstore.GetPackage(tx, project, pkg)
		return buildsvc.NotFoundAs(err, "unknown_package")
	})
	if err != nil {
		return err
	}
	return s.ControlBuilds(who, project, cmd, BuildFilter{Packages: []string{pkg}, Repositories: repos, Archs: archs})
}
