package buildapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// The project meta: GET, PUT and the project's DELETE.

// getProjectMeta renders the project from its record, never from what was PUT; ?deleted=1 shows
// the meta of a deleted project to who may restore it.
func (a *api) getProjectMeta(c *fiber.Ctx) error {
	p, err := a.Svc.ProjectMeta(personOf(c), pathParam(c, "project"), boolParam(c, "deleted"))
	if err != nil {
		return err
	}
	return sendWritten(c, append(metadoc.AppendProject(make([]byte, 0, 1024), p, 0), '\n'))
}

// parseProjectMeta reads a project meta PUT for name: the name must be one, the document needs
// its name attribute, title and description, and the name must be the URL's.
func parseProjectMeta(body []byte, name string) (metadoc.Project, error) {
	var d metadoc.Project
	if !buildstore.ValidProjectName(name) {
		return d, buildsvc.BadRequest("invalid_project_name", "invalid project name '%s'", name)
	}
	if err := parseMeta(body, &d, "project"); err != nil {
		return d, err
	}
	if d.Name == nil || d.Title == nil || d.Description == nil {
		return d, buildsvc.Invalid("project", "<project> needs a name attribute and <title> and <description> elements")
	}
	if *d.Name != name {
		return d, buildsvc.BadRequest("project_name_mismatch", "project name in xml data ('%s') does not match resource path component ('%s')", *d.Name, name)
	}
	return d, nil
}

// putProjectMeta creates or replaces a project's meta (buildsvc.Service.PutProjectMeta has the
// rules).
func (a *api) putProjectMeta(c *fiber.Ctx) error {
	d, err := parseProjectMeta(c.Body(), pathParam(c, "project"))
	if err != nil {
		return err
	}
	if err := a.Svc.PutProjectMeta(personOf(c), d); err != nil {
		return err
	}
	return sendOK(c)
}

// deleteProject deletes a project and its packages, keeping them as tombstones for
// cmd=undelete; force=1 deletes one that other projects' repositories build against.
func (a *api) deleteProject(c *fiber.Ctx) error {
	if err := a.Svc.DeleteProject(personOf(c), pathParam(c, "project"), c.Query("force") == "1"); err != nil {
		return err
	}
	return sendOK(c)
}
