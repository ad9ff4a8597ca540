package buildapi

import (
	"encoding/xml"
	"slices"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
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

// boolParam reads a query flag the way the service does (it asks whether the key is there):
// "?deleted" and "?deleted=1" (what osc sends) are on; "0" and "false" are taken as off, which
// is what a reader of the URL expects.
func boolParam(c *fiber.Ctx, name string) bool {
	v := c.Query(name)
	if v == "" {
		return c.Context().QueryArgs().Has(name)
	}
	return v != "0" && v != "false"
}

// listProjects lists every project; ?deleted=1 lists the deleted ones instead. The real service
// shows deleted projects to Admin only (403 for others); here each person sees the deleted
// projects they may restore (Admin all of them), so `osc ls -D /` followed by `osc undelete`
// works for the owner of a home project too, and nobody learns of others' deleted projects.
func (a *api) listProjects(c *fiber.Ctx) error {
	var names []string
	deleted, who := boolParam(c, "deleted"), personOf(c)
	err := a.Store.View(func(tx *bbolt.Tx) error {
		if !deleted {
			all, err := buildstore.Projects(tx)
			for _, p := range all {
				if !buildsvc.HiddenFrom(tx, who, p) {
					names = append(names, p.Name)
				}
			}
			return err
		}
		all, err := buildstore.DeletedProjects(tx)
		for _, p := range all {
			if mayRestoreProject(tx, who, p.Name) {
				names = append(names, p.Name)
			}
		}
		return err
	})
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

// expandedDirectory is the package list with ?expand=1: each entry names the project it comes
// from, own packages included, as the service renders it.
type expandedDirectory struct {
	XMLName xml.Name        `xml:"directory"`
	Count   int             `xml:"count,attr"`
	Entries []expandedEntry `xml:"entry"`
}

type expandedEntry struct {
	Name          string `xml:"name,attr"`
	OriginProject string `xml:"originproject,attr"`
}

// listPackages lists a project's packages; ?deleted=1 lists the deleted ones (tombstones), also
// of a deleted project that who may restore; ?expand=1 adds the packages inherited through
// project links (see boolParam for what counts as set).
func (a *api) listPackages(c *fiber.Ctx) error {
	if c.Query("view") == "info" {
		return a.projectInfo(c)
	}
	name, who, deleted := pathParam(c, "project"), personOf(c), boolParam(c, "deleted")
	var names []string
	var expanded []buildstore.LinkedPackage
	expand := boolParam(c, "expand") && !deleted
	err := a.Store.View(func(tx *bbolt.Tx) error {
		if _, err := buildstore.GetProject(tx, name); err != nil {
			if _, gone := visibleDeletedProject(tx, who, name); !deleted || gone != nil {
				return buildsvc.NotFoundAs(err, "unknown_project")
			}
		}
		var err error
		if expand {
			expanded, err = buildsvc.VisibleLinkedPackages(tx, who, name)
			return err
		}
		names, err = buildstore.PackageNames(tx, name, deleted)
		return err
	})
	if err != nil {
		return err
	}
	if expand {
		doc := expandedDirectory{Count: len(expanded)}
		for _, k := range expanded {
			doc.Entries = append(doc.Entries, expandedEntry{Name: k.Name, OriginProject: k.Project})
		}
		return sendXML(c, doc)
	}
	return sendXML(c, newDirectory(names))
}

// getProjectMeta renders the project from its record, never from what was PUT; ?deleted=1 shows
// the meta of a deleted project to who may restore it.
func (a *api) getProjectMeta(c *fiber.Ctx) error {
	name, who := pathParam(c, "project"), personOf(c)
	var p buildstore.Project
	err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		if boolParam(c, "deleted") {
			p, err = visibleDeletedProject(tx, who, name)
			return err
		}
		p, err = buildstore.GetProject(tx, name)
		return buildsvc.NotFoundAs(err, "unknown_project")
	})
	if err != nil {
		return err
	}
	p.Deleted = false
	return sendXML(c, projectDoc(p))
}

// putProjectMeta creates or replaces a project's meta after the name, content and permission
// checks; a new project gets its creator as maintainer when the document leaves them out. A
// project created where a deleted one is kept starts afresh (buildstore.PutProject drops the
// deleted one's packages, key and patterns).
func (a *api) putProjectMeta(c *fiber.Ctx) error {
	name := pathParam(c, "project")
	if !buildstore.ValidProjectName(name) {
		return buildsvc.BadRequest("invalid_project_name", "invalid project name '%s'", name)
	}
	var d projectXML
	if err := parseMeta(c.Body(), &d, "project"); err != nil {
		return err
	}
	if d.Name == nil || d.Title == nil || d.Description == nil {
		return buildsvc.Invalid("project", "<project> needs a name attribute and <title> and <description> elements")
	}
	if *d.Name != name {
		return buildsvc.BadRequest("project_name_mismatch", "project name in xml data ('%s') does not match resource path component ('%s')", *d.Name, name)
	}
	p, who := projectRecord(d), personOf(c)
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		old, err := buildstore.GetProject(tx, name)
		switch {
		case err == nil && !buildsvc.Maintains(tx, who, old.Persons, old.Groups):
			return buildsvc.Forbidden("change_project_no_permission", "no permission to change project '%s': it needs a maintainer of the project", name)
		case err != nil && !buildsvc.MayCreateProject(tx, who, name):
			return buildsvc.Forbidden("create_project_no_permission", "not allowed to create new project '%s': only an administrator creates top-level projects; you may create home:%s and projects below it", name, who.Login)
		}
		if old.Locked {
			return buildsvc.Forbidden("project_locked", "The target project is locked")
		}
		if err := buildsvc.CheckProject(tx, p); err != nil {
			return err
		}
		if err := checkProjectRefs(tx, d, p); err != nil {
			return err
		}
		p.Created, p.Config = old.Created, old.Config
		if err != nil {
			p.Created = a.Clock.Now()
			if !slices.Contains(p.Persons, buildstore.Role{ID: who.Login, Role: buildstore.RoleMaintainer}) {
				p.Persons = append(p.Persons, buildstore.Role{ID: who.Login, Role: buildstore.RoleMaintainer})
			}
		}
		return buildstore.PutProject(tx, p)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// deleteProject deletes a project and its packages, keeping them as tombstones for cmd=undelete.
// When other projects' repositories build against it, only force=1 goes ahead (their paths then
// point at deleted/standard). A locked project is not deleted (unlock it first), as a locked
// project refuses every write.
func (a *api) deleteProject(c *fiber.Ctx) error {
	name, who := pathParam(c, "project"), personOf(c)
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		_, err := buildsvc.ProjectOfMaintainer(tx, who, name, true, buildsvc.Forbidden("delete_project_no_permission", "no permission to delete project '%s'", name))
		if err != nil {
			return err
		}
		deps, err := buildstore.DependentPaths(tx, name)
		if err != nil {
			return err
		}
		if len(deps) > 0 && c.Query("force") != "1" {
			return buildsvc.BadRequest("repo_dependency", "Unable to delete project %s; following repositories depend on this project: %v (use force=1)", name, deps)
		}
		return buildstore.DeleteProject(tx, name)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}
