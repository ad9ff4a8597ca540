package buildapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// The package meta: GET (also an old one, ?rev=), PUT and the package's DELETE.

// getPackageMeta renders the package from its record.
func (a *api) getPackageMeta(c *fiber.Ctx) error {
	if c.Query("rev") != "" {
		return a.getOldMeta(c)
	}
	k, err := a.Svc.PackageMeta(pathParam(c, "project"), pathParam(c, "package"))
	if err != nil {
		return err
	}
	return sendWritten(c, metadoc.RenderPackage(k))
}

// parsePackageMeta reads a package meta PUT for project/name: missing name and project
// attributes are taken from the URL, different ones are refused.
func parsePackageMeta(body []byte, project, name string) (buildstore.Package, error) {
	if !buildstore.ValidPackageName(name) {
		return buildstore.Package{}, buildsvc.BadRequest("invalid_package_name", "invalid package name '%s'", name)
	}
	var d metadoc.Package
	if err := parseMeta(body, &d, "package"); err != nil {
		return buildstore.Package{}, err
	}
	if d.Title == nil || d.Description == nil {
		return buildstore.Package{}, buildsvc.Invalid("package", "<package> needs <title> and <description> elements")
	}
	if d.Name != nil && *d.Name != name {
		return buildstore.Package{}, buildsvc.BadRequest("package_name_mismatch", "package name in xml data ('%s') does not match resource path component ('%s')", *d.Name, name)
	}
	if d.Project != nil && *d.Project != project {
		return buildstore.Package{}, buildsvc.BadRequest("project_name_mismatch", "project name in xml data ('%s') does not match resource path component ('%s')", *d.Project, project)
	}
	d.Name, d.Project = &name, &project
	return d.Record(), nil
}

// putPackageMeta creates or replaces a package's meta (buildsvc.Service.PutPackageMeta has the
// rules); ?comment= labels the meta revision.
func (a *api) putPackageMeta(c *fiber.Ctx) error {
	k, err := parsePackageMeta(c.Body(), pathParam(c, "project"), pathParam(c, "package"))
	if err != nil {
		return err
	}
	if err := a.Svc.PutPackageMeta(personOf(c), k, strings.Clone(c.Query("comment"))); err != nil {
		return err
	}
	return sendOK(c)
}

// deletePackage marks a package deleted (a tombstone, listed with ?deleted=1 and brought back
// by cmd=undelete).
func (a *api) deletePackage(c *fiber.Ctx) error {
	if err := a.Svc.DeletePackage(personOf(c), pathParam(c, "project"), pathParam(c, "package")); err != nil {
		return err
	}
	return sendOK(c)
}
