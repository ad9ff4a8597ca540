package buildapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// getPackageMeta renders the package from its record.
func (a *api) getPackageMeta(c *fiber.Ctx) error {
	if c.Query("rev") != "" {
		return a.getOldMeta(c)
	}
	var k buildstore.Package
	err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		_, k, err = buildsvc.LookupPackage(tx, pathParam(c, "project"), pathParam(c, "package"))
		return err
	})
	if err != nil {
		return err
	}
	return sendXML(c, packageDoc(k))
}

// parsePackageMeta reads a package meta PUT for project/name: missing name and project
// attributes are taken from the URL, different ones are refused.
func parsePackageMeta(body []byte, project, name string) (buildstore.Package, error) {
	if !buildstore.ValidPackageName(name) {
		return buildstore.Package{}, buildsvc.BadRequest("invalid_package_name", "invalid package name '%s'", name)
	}
	var d packageXML
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
	return packageRecord(d), nil
}

// putPackageMeta creates or replaces a package's meta; a maintainer of the project (or of an
// existing package) may, or Admin.
func (a *api) putPackageMeta(c *fiber.Ctx) error {
	project, name, who := pathParam(c, "project"), pathParam(c, "package"), personOf(c)
	k, err := parsePackageMeta(c.Body(), project, name)
	if err != nil {
		return err
	}
	comment := strings.Clone(c.Query("comment"))
	err = a.Store.Write(func(tx *bbolt.Tx) error {
		p, old, err := buildsvc.LookupPackage(tx, project, name)
		if p.Name == "" {
			return err
		}
		if !buildsvc.Maintains(tx, who, p.Persons, p.Groups) && (err != nil || !buildsvc.Maintains(tx, who, old.Persons, old.Groups)) {
			return buildsvc.Forbidden("modify_package_no_permission", "no permission to change package '%s' in project '%s': it needs a maintainer of the project or package", name, project)
		}
		if p.Locked || old.Locked {
			return buildsvc.Forbidden("project_locked", "The target project is locked")
		}
		if err := checkPackage(tx, k); err != nil {
			return err
		}
		k.Created = old.Created
		if err != nil {
			k.Created = a.Clock.Now()
		}
		if err := buildstore.PutPackage(tx, k); err != nil {
			return err
		}
		return a.recordMeta(tx, k, who.Login, comment)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// checkPackage runs the content rules on a package record: roles, flags, an existing devel
// project.
func checkPackage(tx *bbolt.Tx, k buildstore.Package) error {
	if err := buildsvc.CheckRoles(tx, "package", k.Persons, k.Groups); err != nil {
		return err
	}
	if err := buildsvc.CheckFlags("package", k.Flags); err != nil {
		return err
	}
	if k.Devel != nil && k.Devel.Project != "" {
		if _, err := buildstore.GetProject(tx, k.Devel.Project); err != nil {
			return buildsvc.Invalid("package", "devel %v", err)
		}
	}
	return nil
}

// deletePackage marks a package deleted: a tombstone keeps its meta and history, so
// GET /source/P?deleted=1 lists it and cmd=undelete brings it back. Its attribute values go
// (the service keeps them in its database rows, which a delete destroys).
func (a *api) deletePackage(c *fiber.Ctx) error {
	project, name, who := pathParam(c, "project"), pathParam(c, "package"), personOf(c)
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		p, k, err := buildsvc.LookupPackage(tx, project, name)
		if err != nil {
			return err
		}
		if !buildsvc.Maintains(tx, who, p.Persons, p.Groups) && !buildsvc.Maintains(tx, who, k.Persons, k.Groups) {
			return buildsvc.Forbidden("delete_package_no_permission", "no permission to delete package '%s' in project '%s'", name, project)
		}
		if p.Locked || k.Locked {
			return buildsvc.Forbidden("project_locked", "The target project is locked")
		}
		if err := buildstore.DeleteAttributes(tx, project, name); err != nil {
			return err
		}
		return buildstore.DeletePackage(tx, project, name)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}
