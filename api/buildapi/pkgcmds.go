package buildapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// Package commands beyond the upload revision (uploads.go): cmd=undelete and cmd=copy.
// cmd=diff is in diff.go.

// undeletePackage restores a deleted package (a maintainer of the project may) and appends a
// revision with its last tree, so the history shows the restore.
func (a *api) undeletePackage(c *fiber.Ctx) error {
	project, pkg, who := pathParam(c, "project"), pathParam(c, "package"), personOf(c)
	comment := strings.Clone(c.Query("comment"))
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		p, err := buildstore.GetProject(tx, project)
		if err != nil {
			return buildsvc.NotFoundAs(err, "unknown_project")
		}
		if _, err := buildstore.GetPackage(tx, project, pkg); err == nil {
			return buildsvc.BadRequest("package_exists", "the package '%s/%s' exists", project, pkg)
		}
		if _, err := buildstore.GetDeletedPackage(tx, project, pkg); err != nil {
			return buildsvc.NotFoundAs(err, "unknown_package")
		}
		if !buildsvc.Maintains(tx, who, p.Persons, p.Groups) {
			return buildsvc.Forbidden("cmd_execution_no_permission", "no permission to undelete package '%s' in project '%s': it needs a maintainer of the project", pkg, project)
		}
		return a.restorePackage(tx, project, pkg, who.Login, comment)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// otherPackage is the oproject/opackage of a command, each defaulting to the URL's.
func otherPackage(c *fiber.Ctx) (string, string) {
	oproject, opackage := c.Query("oproject"), c.Query("opackage")
	if oproject == "" {
		oproject = pathParam(c, "project")
	}
	if opackage == "" {
		opackage = pathParam(c, "package")
	}
	return strings.Clone(oproject), strings.Clone(opackage)
}

// copyPackage commits the files of oproject/opackage at ?orev= (default: newest; expanded
// with ?expand=1, a link otherwise stays a link) as a new revision of this package, which a maintainer of the project may create on the way (with the
// source's title and description), as the API does for a missing target.
func (a *api) copyPackage(c *fiber.Ctx) error {
	project, pkg, who := pathParam(c, "project"), pathParam(c, "package"), personOf(c)
	oproject, opackage := otherPackage(c)
	comment, orev := strings.Clone(c.Query("comment")), strings.Clone(c.Query("orev"))
	expand, linkrev := boolParam(c, "expand"), strings.Clone(c.Query("olinkrev"))
	var doc fileDirXML
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		_, src, err := buildsvc.LookupPackage(tx, oproject, opackage)
		if err != nil {
			return err
		}
		v, err := buildsvc.ReadView(tx, who, oproject, opackage, orev, expand, linkrev)
		if err != nil {
			return err
		}
		if v.Pending != nil {
			if err := buildstore.PutExpansion(tx, oproject, opackage, *v.Pending); err != nil {
				return err
			}
		}
		if err := a.ensurePackage(tx, who, project, pkg, src); err != nil {
			return err
		}
		if err := buildsvc.Writable(tx, who, project, pkg, "cmd_execution_no_permission"); err != nil {
			return err
		}
		r, err := buildstore.Commit(tx, project, pkg, v.Tree.Files, who.Login, comment, a.Clock.Now())
		if err != nil {
			return err
		}
		doc, err = committedView(tx, project, pkg, r)
		return err
	})
	if err != nil {
		return err
	}
	return sendXML(c, doc)
}

// ensurePackage creates project/name from src's title and description when it does not exist;
// that needs a maintainer of the project (a tombstone under the name is replaced, its history
// dropped, as a meta PUT would).
func (a *api) ensurePackage(tx *bbolt.Tx, who buildstore.Person, project, name string, src buildstore.Package) error {
	p, _, err := buildsvc.LookupPackage(tx, project, name)
	if err == nil || p.Name == "" {
		return err
	}
	if !buildstore.ValidPackageName(name) {
		return buildsvc.BadRequest("invalid_package_name", "invalid package name '%s'", name)
	}
	if !buildsvc.Maintains(tx, who, p.Persons, p.Groups) {
		return buildsvc.Forbidden("create_package_no_permission", "no permission to create package '%s' in project '%s'", name, project)
	}
	k := buildstore.Package{Project: project, Name: name, Title: src.Title, Description: src.Description, Created: a.Clock.Now()}
	if err := buildstore.PutPackage(tx, k); err != nil {
		return err
	}
	return a.recordMeta(tx, k, who.Login, "")
}
