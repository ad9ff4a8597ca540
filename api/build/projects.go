package build

import (
	"slices"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/build"
	"go.etcd.io/bbolt"
)

// bindSources registers /source: project and package lists, metas and deletes (file contents
// and revisions come later). The _meta routes come first: "_meta" is never a package name.
func (a *api) bindSources(r fiber.Router) {
	a.get(r, "/source", a.listProjects) // also /source/, which osc ls / asks for (StrictRouting is off)
	a.get(r, "/source/:project/_meta", a.getProjectMeta)
	r.Put("/source/:project/_meta", a.authenticated, a.putProjectMeta)
	a.get(r, "/source/:project", a.listPackages)
	a.bindProjectCmds(r)
	r.Delete("/source/:project", a.authenticated, a.deleteProject)
	a.get(r, "/source/:project/:package/_meta", a.getPackageMeta)
	r.Put("/source/:project/:package/_meta", a.authenticated, a.putPackageMeta)
	a.get(r, "/source/:project/:package", a.getPackage)
	r.Delete("/source/:project/:package", a.authenticated, a.deletePackage)
}

// sendOK is the answer of every successful write.
func sendOK(c *fiber.Ctx) error { return sendXML(c, status{Code: "ok", Summary: "Ok"}) }

// listProjects lists every project. Deleted projects are not kept yet, so ?deleted=1 is empty.
func (a *api) listProjects(c *fiber.Ctx) error {
	var names []string
	if c.Query("deleted") != "1" {
		err := a.Store.View(func(tx *bbolt.Tx) error {
			all, err := build.Projects(tx)
			for _, p := range all {
				names = append(names, p.Name)
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	return sendXML(c, newDirectory(names))
}

// listPackages lists a project's packages; ?deleted=1 lists the deleted ones (tombstones).
func (a *api) listPackages(c *fiber.Ctx) error {
	var names []string
	err := a.Store.View(func(tx *bbolt.Tx) error {
		if _, err := build.GetProject(tx, pathParam(c, "project")); err != nil {
			return notFoundAs(err, "unknown_project")
		}
		var err error
		names, err = build.PackageNames(tx, pathParam(c, "project"), c.Query("deleted") == "1")
		return err
	})
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

// getProjectMeta renders the project from its record, never from what was PUT.
func (a *api) getProjectMeta(c *fiber.Ctx) error {
	var p build.Project
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) { p, err = build.GetProject(tx, pathParam(c, "project")); return }); err != nil {
		return notFoundAs(err, "unknown_project")
	}
	return sendXML(c, projectDoc(p))
}

// putProjectMeta creates or replaces a project's meta after the name, content and permission
// checks; a new project gets its creator as maintainer when the document leaves them out.
func (a *api) putProjectMeta(c *fiber.Ctx) error {
	name := pathParam(c, "project")
	if !build.ValidProjectName(name) {
		return badRequest("invalid_project_name", "invalid project name '%s'", name)
	}
	var d projectXML
	if err := parseMeta(c.Body(), &d, "project"); err != nil {
		return err
	}
	if d.Name == nil || d.Title == nil || d.Description == nil {
		return invalid("project", "<project> needs a name attribute and <title> and <description> elements")
	}
	if *d.Name != name {
		return badRequest("project_name_mismatch", "project name in xml data ('%s') does not match resource path component ('%s')", *d.Name, name)
	}
	p, who := projectRecord(d), personOf(c)
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		old, err := build.GetProject(tx, name)
		switch {
		case err == nil && !maintains(tx, who, old.Persons, old.Groups):
			return forbidden("change_project_no_permission", "no permission to change project '%s': it needs a maintainer of the project", name)
		case err != nil && !mayCreateProject(tx, who, name):
			return forbidden("create_project_no_permission", "not allowed to create new project '%s': only an administrator creates top-level projects; you may create home:%s and projects below it", name, who.Login)
		}
		if old.Locked {
			return forbidden("project_locked", "The target project is locked")
		}
		if err := checkProject(tx, p); err != nil {
			return err
		}
		p.Created, p.Config = old.Created, old.Config
		if err != nil {
			p.Created = a.Clock.Now()
			if !slices.Contains(p.Persons, build.Role{ID: who.Login, Role: build.RoleMaintainer}) {
				p.Persons = append(p.Persons, build.Role{ID: who.Login, Role: build.RoleMaintainer})
			}
		}
		return build.PutProject(tx, p)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// deleteProject removes a project and its packages. When other projects' repositories build
// against it, only force=1 goes ahead (their paths then point at deleted/standard).
func (a *api) deleteProject(c *fiber.Ctx) error {
	name, who := pathParam(c, "project"), personOf(c)
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		p, err := build.GetProject(tx, name)
		if err != nil {
			return notFoundAs(err, "unknown_project")
		}
		if !maintains(tx, who, p.Persons, p.Groups) {
			return forbidden("delete_project_no_permission", "no permission to delete project '%s'", name)
		}
		deps, err := build.DependentPaths(tx, name)
		if err != nil {
			return err
		}
		if len(deps) > 0 && c.Query("force") != "1" {
			return badRequest("repo_dependency", "Unable to delete project %s; following repositories depend on this project: %v (use force=1)", name, deps)
		}
		return build.DeleteProject(tx, name)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}
