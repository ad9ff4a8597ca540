package buildapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// The lock and flag commands (POST /source/P[/K]?cmd=lock|unlock|set_flag|remove_flag) and the
// project build configuration (/source/P/_config). Every one is a maintainer's (or Admin's)
// edit of the project or package record (buildsvc.RecordCmd, buildsvc.Service.EditProject and
// EditPackage).

// bindProjectCmds registers the project POST, POST /source, and the project's _config,
// _pubkey and _pattern; called from bindSources before /source/:project/:package (and so
// before the file routes), which would otherwise take "_config", "_pubkey" or "_pattern" as a
// package name.
func (a *api) bindProjectCmds(r fiber.Router) {
	r.Post("/source", a.authenticated, a.postSource) // also /source/ (StrictRouting is off)
	a.get(r, "/source/:project/_config", a.getConfig)
	r.Put("/source/:project/_config", a.authenticated, a.putConfig)
	a.get(r, "/source/:project/_pubkey", a.getPubkey)
	r.Delete("/source/:project/_pubkey", a.authenticated, a.deletePubkey)
	a.get(r, "/source/:project/_pattern", a.listPatterns)
	a.get(r, "/source/:project/_pattern/:pattern", a.getPattern)
	r.Put("/source/:project/_pattern/:pattern", a.authenticated, a.putPattern)
	r.Delete("/source/:project/_pattern/:pattern", a.authenticated, a.deletePattern)
	r.Post("/source/:project", a.authenticated, a.postProject)
}

// recordCmd reads a lock or flag command (cmd, comment, and flag, status, repository and
// arch); ok is false for any other command. buildsvc.NewRecordCmd checks it before any lookup,
// so a bad flag is a 400 whoever asks.
func recordCmd(c *fiber.Ctx) (rc buildsvc.RecordCmd, ok bool, err error) {
	cmd := c.Query("cmd")
	if !buildsvc.IsRecordCmd(cmd) {
		return rc, false, nil
	}
	f := buildstore.Flag{Name: strings.Clone(c.Query("flag")), Status: strings.Clone(c.Query("status")),
		Repository: strings.Clone(c.Query("repository")), Arch: strings.Clone(c.Query("arch"))}
	rc, err = buildsvc.NewRecordCmd(strings.Clone(cmd), strings.Clone(c.Query("comment")), f)
	return rc, true, err
}

// postProject dispatches the project commands: the lock and flag edits, undelete, showlinked,
// copy, the signing-key commands, and the commands that need the build farm (refused, saying
// so).
func (a *api) postProject(c *fiber.Ctx) error {
	rc, ok, err := recordCmd(c)
	switch {
	case err != nil:
		return err
	case ok:
		if err := a.Svc.EditProject(personOf(c), pathParam(c, "project"), rc); err != nil {
			return err
		}
		return sendOK(c)
	}
	switch cmd := c.Query("cmd"); cmd {
	case "":
		return buildsvc.BadRequest("missing_parameter", "POST %s needs a cmd parameter", c.Path())
	case "undelete":
		return a.undeleteProject(c)
	case "showlinked":
		return a.showLinked(c)
	case "copy":
		return a.copyProject(c)
	case "createkey":
		return a.createKey(c)
	case "extendkey":
		return a.extendKey(c)
	case "release":
		return a.releaseCmd(c, "")
	case "createmaintenanceincident":
		return a.createIncident(c, pathParam(c, "project"))
	case "createpatchinfo":
		return a.createPatchinfo(c)
	case "addchannels", "modifychannels":
		return a.channelsCmd(c, cmd)
	case "move":
		return a.moveProject(c)
	default:
		return buildsvc.BadRequest("illegal_request", "unsupported POST command %s to %s", cmd, c.Path())
	}
}

// packageRecordCmd runs a lock or flag command on a package; ok is false for other commands,
// which postPackage handles itself.
func (a *api) packageRecordCmd(c *fiber.Ctx) (ok bool, err error) {
	rc, ok, err := recordCmd(c)
	if !ok || err != nil {
		return ok, err
	}
	if err := a.Svc.EditPackage(personOf(c), pathParam(c, "project"), pathParam(c, "package"), rc); err != nil {
		return true, err
	}
	return true, sendOK(c)
}

// getConfig answers the project's build configuration as text (empty when none was set).
func (a *api) getConfig(c *fiber.Ctx) error {
	config, err := a.Svc.ProjectConfig(pathParam(c, "project"))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	return c.SendString(config)
}

// putConfig replaces the build configuration; the body is kept as sent, not parsed.
func (a *api) putConfig(c *fiber.Ctx) error {
	if err := a.Svc.SetProjectConfig(personOf(c), pathParam(c, "project"), string(c.Body())); err != nil {
		return err
	}
	return sendOK(c)
}
