package buildapi

import (
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// The lock and flag commands (POST /source/P[/K]?cmd=lock|unlock|set_flag|remove_flag) and the
// project build configuration (/source/P/_config). Every one is a maintainer's (or Admin's)
// edit of the project or package record, so both kinds share one edit function per record.

// flagNames are the flags set_flag and remove_flag take: the meta's flag blocks.
var flagNames = []string{"build", "publish", "debuginfo", "useforbuild", "binarydownload", "sourceaccess", "access"}

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

// recordEdit changes a record's lock and flags in place; the caller stores the record.
type recordEdit func(locked *bool, flags *[]buildstore.Flag) error

// recordCmd turns a lock or flag command into an edit; ok is false for any other command.
// Its checks run before any lookup, so a bad flag is a 400 whoever asks.
func recordCmd(c *fiber.Ctx) (edit recordEdit, ok bool, err error) {
	switch c.Query("cmd") {
	case "lock":
		return func(l *bool, _ *[]buildstore.Flag) error { *l = true; return nil }, true, nil
	case "unlock":
		if c.Query("comment") == "" {
			return nil, true, buildsvc.BadRequest("missing_parameter", "unlock needs a comment")
		}
		return func(l *bool, _ *[]buildstore.Flag) error { *l = false; return nil }, true, nil
	case "set_flag", "remove_flag":
		f, err := flagParam(c)
		if err != nil {
			return nil, true, err
		}
		return func(l *bool, flags *[]buildstore.Flag) error {
			if *l {
				return buildsvc.Forbidden("project_locked", "The target project is locked")
			}
			if f.Status == "" {
				*flags = buildstore.RemoveFlag(*flags, f)
			} else {
				*flags = buildstore.SetFlag(*flags, f)
			}
			return nil
		}, true, nil
	}
	return nil, false, nil
}

// flagParam reads flag, status (set_flag only), repository and arch; the service answers
// invalid_flag for an unknown flag, status or architecture.
func flagParam(c *fiber.Ctx) (buildstore.Flag, error) {
	f := buildstore.Flag{Name: strings.Clone(c.Query("flag")), Repository: strings.Clone(c.Query("repository")), Arch: strings.Clone(c.Query("arch"))}
	if !slices.Contains(flagNames, f.Name) {
		return f, buildsvc.BadRequest("invalid_flag", "Error: unknown flag type '%s' not found.", f.Name)
	}
	if c.Query("cmd") == "set_flag" {
		f.Status = strings.Clone(c.Query("status"))
		if f.Status != "enable" && f.Status != "disable" {
			return f, buildsvc.BadRequest("invalid_flag", "Error: unknown status for flag '%s'", f.Status)
		}
	}
	if f.Arch != "" && !slices.Contains(buildsvc.Architectures, f.Arch) {
		return f, buildsvc.BadRequest("invalid_flag", "Error: unknown architecture '%s'", f.Arch)
	}
	return f, nil
}

// postProject dispatches the project commands: the lock and flag edits, undelete, showlinked,
// copy, the signing-key commands, and the commands that need the build farm (refused, saying
// so).
func (a *api) postProject(c *fiber.Ctx) error {
	edit, ok, err := recordCmd(c)
	switch {
	case err != nil:
		return err
	case ok:
		return a.editProjectRecord(c, edit)
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
	default:
		if _, farm := farmCommands[cmd]; farm {
			return a.farmProjectCmd(c, cmd)
		}
		return buildsvc.BadRequest("illegal_request", "unsupported POST command %s to %s", cmd, c.Path())
	}
}

// editProjectRecord runs a lock or flag command on the project record (a maintainer's or
// Admin's edit).
func (a *api) editProjectRecord(c *fiber.Ctx, edit recordEdit) error {
	name, who := pathParam(c, "project"), personOf(c)
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		p, err := buildsvc.MaintainedProject(tx, who, name, c.Query("cmd"), false)
		if err != nil {
			return err
		}
		if err := edit(&p.Locked, &p.Flags); err != nil {
			return err
		}
		return buildstore.PutProject(tx, p)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// packageRecordCmd runs a lock or flag command on a package; ok is false for other commands,
// which postPackage handles itself. A locked project locks its packages too.
func (a *api) packageRecordCmd(c *fiber.Ctx) (ok bool, err error) {
	edit, ok, err := recordCmd(c)
	if !ok || err != nil {
		return ok, err
	}
	project, name, who := pathParam(c, "project"), pathParam(c, "package"), personOf(c)
	err = a.Store.Write(func(tx *bbolt.Tx) error {
		p, k, err := buildsvc.LookupPackage(tx, project, name)
		if err != nil {
			return err
		}
		if !buildsvc.Maintains(tx, who, p.Persons, p.Groups) && !buildsvc.Maintains(tx, who, k.Persons, k.Groups) {
			return buildsvc.Forbidden("cmd_execution_no_permission", "no permission to execute command '%s' on package '%s/%s'", c.Query("cmd"), project, name)
		}
		if p.Locked {
			return buildsvc.Forbidden("project_locked", "The target project is locked")
		}
		if err := edit(&k.Locked, &k.Flags); err != nil {
			return err
		}
		if err := buildstore.PutPackage(tx, k); err != nil {
			return err
		}
		return a.recordMeta(tx, k, who.Login, c.Query("comment"))
	})
	if err != nil {
		return true, err
	}
	return true, sendOK(c)
}

// getConfig answers the project's build configuration as text (empty when none was set).
func (a *api) getConfig(c *fiber.Ctx) error {
	var p buildstore.Project
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) { p, err = buildstore.GetProject(tx, pathParam(c, "project")); return }); err != nil {
		return buildsvc.NotFoundAs(err, "unknown_project")
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	return c.SendString(p.Config)
}

// putConfig replaces the build configuration; the body is kept as sent, not parsed.
func (a *api) putConfig(c *fiber.Ctx) error {
	name, who, body := pathParam(c, "project"), personOf(c), string(slices.Clone(c.Body()))
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		p, err := buildsvc.ProjectOfMaintainer(tx, who, name, true,
			buildsvc.Forbidden("change_project_no_permission", "no permission to change the config of project '%s'", name))
		if err != nil {
			return err
		}
		p.Config = body
		return buildstore.PutProject(tx, p)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}
