package buildapi

import (
	"encoding/xml"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// A project's life beyond its meta: undelete after a delete (deleted projects are tombstones,
// see store/build.DeleteProject), project links and the devel project in the meta, the
// projects that link here (cmd=showlinked), and the commands that need the build farm, which
// are refused with a sentence saying so.

// restorePackage brings a deleted package back: its tombstone is cleared and, when it had
// commits, a revision with its last tree is appended, so the history shows the restore (the
// backend's undelete_rev). Package undelete and project undelete share it; a package without
// commits gets none, as the backend undeletes sources only when there were some.
func (a *api) restorePackage(tx *bbolt.Tx, project, pkg, user, comment string) error {
	if err := buildstore.UndeletePackage(tx, project, pkg); err != nil {
		return buildsvc.NotFoundAs(err, "unknown_package")
	}
	last, ok, err := buildstore.LatestRevision(tx, project, pkg)
	if err != nil || !ok {
		return err
	}
	_, err = buildstore.Commit(tx, project, pkg, last.Files, user, comment, a.Clock.Now())
	return err
}

// mayRestoreProject: who may undelete a project, and so see it among the deleted ones — whoever
// may create a project of that name (Admin, the owner of the home tree, a maintainer of the
// nearest existing parent), as the real service's can_create_project? check.
func mayRestoreProject(tx *bbolt.Tx, who buildstore.Person, name string) bool {
	return buildsvc.MayCreateProject(tx, who, name)
}

// undeleteProject restores a deleted project with the packages deleted with it, each getting a
// revision with its last tree. The service checks the permission first (403), then that the
// project is not there already (400 project_exists), then that it was deleted (404).
func (a *api) undeleteProject(c *fiber.Ctx) error {
	name, who := pathParam(c, "project"), personOf(c)
	comment := strings.Clone(c.Query("comment"))
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		if !mayRestoreProject(tx, who, name) {
			return buildsvc.Forbidden("cmd_execution_no_permission", "no permission to execute command 'undelete': restoring project '%s' needs the right to create it", name)
		}
		if _, err := buildstore.GetProject(tx, name); err == nil {
			return buildsvc.BadRequest("project_exists", "project '%s' already exists", name)
		}
		restore, err := buildstore.UndeleteProject(tx, name)
		if err != nil {
			return buildsvc.NotFoundAs(err, "unknown_project")
		}
		for _, k := range restore {
			if err := a.restorePackage(tx, name, k, who.Login, comment); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// linkedCollection is cmd=showlinked's answer: <collection><project name=…/>*</collection>.
type linkedCollection struct {
	XMLName  xml.Name `xml:"collection"`
	Projects []entry  `xml:"project"`
}

// showLinked lists the projects whose meta links to this one. Anyone may ask (the service
// checks no permission for it).
func (a *api) showLinked(c *fiber.Ctx) error {
	name := pathParam(c, "project")
	var names []string
	err := a.Store.View(func(tx *bbolt.Tx) error {
		if _, err := buildstore.GetProject(tx, name); err != nil {
			return buildsvc.NotFoundAs(err, "unknown_project")
		}
		var err error
		names, err = buildstore.LinkingProjects(tx, name)
		return err
	})
	if err != nil {
		return err
	}
	doc := linkedCollection{}
	for _, n := range names {
		doc.Projects = append(doc.Projects, entry{Name: n})
	}
	return sendXML(c, doc)
}

// farmCommands are the project commands that work on built binaries or on the maintenance
// workflow of the build farm, with what each does; this appliance does not run the build farm
// yet, so they are refused with a 400 illegal_request that says so (rather than the generic
// "unsupported command"), and the user knows the command exists.
var farmCommands = map[string]string{
	"release":                   "copies built binaries into the release targets",
	"createmaintenanceincident": "creates a maintenance incident project for the maintenance workflow",
	"createpatchinfo":           "creates a patchinfo for a maintenance update",
	"addchannels":               "adds channel packages and their repositories",
	"modifychannels":            "changes the repositories of channel packages",
	"move":                      "moves a project with its binaries while the schedulers are stopped",
}

// needsFarm is the refusal of a command that needs the build farm.
func needsFarm(cmd, what string) error {
	return buildsvc.BadRequest("illegal_request", "cmd=%s %s: it needs the build farm, which this appliance does not run yet", cmd, what)
}

// farmProjectCmd answers a build-farm command after the usual checks, so a user learns about a
// missing project or permission first: move is Admin's (its URL names the new project, which
// need not exist), the others need a maintainer of an existing project.
func (a *api) farmProjectCmd(c *fiber.Ctx, cmd string) error {
	name, who := pathParam(c, "project"), personOf(c)
	if cmd == "move" {
		if !who.IsAdmin() {
			return buildsvc.Forbidden("cmd_execution_no_permission", "Admin permissions required. STOP SCHEDULER BEFORE.")
		}
		return needsFarm(cmd, farmCommands[cmd])
	}
	err := a.Store.View(func(tx *bbolt.Tx) error {
		_, err := buildsvc.MaintainedProject(tx, who, name, cmd, false)
		return err
	})
	if err != nil {
		return err
	}
	return needsFarm(cmd, farmCommands[cmd])
}

// postSource answers POST /source: branching by attribute (cmd=branch) and
// createmaintenanceincident both belong to the maintenance workflow of the build farm, so they
// are refused saying so; other commands are unsupported.
func (a *api) postSource(c *fiber.Ctx) error {
	switch cmd := c.Query("cmd"); cmd {
	case "":
		return buildsvc.BadRequest("missing_parameter", "POST %s needs a cmd parameter", c.Path())
	case "branch":
		return needsFarm(cmd, "without a project branches the packages marked by an attribute (OBS:Maintained) for a maintenance update")
	case "createmaintenanceincident":
		return needsFarm(cmd, farmCommands[cmd])
	default:
		return buildsvc.BadRequest("illegal_request", "unsupported POST command %s to %s", cmd, c.Path())
	}
}
