package maintenance

import (
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// cmd=instantiate on a package a project only inherits through a project link (OBS's
// instantiate_container): the project gets a package of its own — the origin's title and
// description, and the origin's expanded sources as its first revision ("initialize package")
// — so an update can change it without touching the linked project. With makeoriginolder (the
// parameter, or the project carrying OBS:MakeOriginOlder) the copy's revision gets the origin's
// vrev + 1 and the origin a new revision with vrev + 2, as a project copy with makeolder does,
// so the origin's later builds sort after the instance's.
//
// Refusals: a package the project has itself is 400 package_exists ("package is already
// intialized here", OBS's words); one it does not inherit either is 404 unknown_package; who
// must maintain the project (403 cmd_execution_no_permission) and, with makeoriginolder, the
// origin project too; the origin's sources must be readable.

// Instantiate runs cmd=instantiate on project/pkg for who.
func (s *Service) Instantiate(who buildstore.Person, project, pkg string, makeOriginOlder bool) error {
	now := s.Clock().Now()
	return s.Store().Write(func(tx kv.Tx) error {
		p, err := buildsvc.ReadableProject(tx, who, project)
		if err != nil {
			return err
		}
		if _, err := buildstore.GetPackage(tx, project, pkg); err == nil {
			return buildsvc.BadRequest("package_exists", "package is already intialized here")
		}
		origin, err := inheritedFrom(tx, who, project, pkg)
		if err != nil {
			return err
		}
		if !buildsvc.Maintains(tx, who, p.Persons, p.Groups) {
			return buildsvc.Forbidden("cmd_execution_no_permission", "no permission to execute command 'instantiate'")
		}
		if p.Locked {
			return buildsvc.Forbidden("project_locked", "The target project is locked")
		}
		if _, err := buildstore.GetAttribute(tx, project, "", "", "OBS", "MakeOriginOlder"); err == nil {
			makeOriginOlder = true
		}
		op, k, err := buildsvc.LookupVisiblePackage(tx, who, origin, pkg)
		if err != nil {
			return err
		}
		if makeOriginOlder && !buildsvc.Maintains(tx, who, op.Persons, op.Groups) {
			return buildsvc.Forbidden("cmd_execution_no_permission", "no permission to modify source package")
		}
		return instantiate(tx, who, k, project, makeOriginOlder, now)
	})
}

// inheritedFrom is the project pkg of project comes from through the project links.
func inheritedFrom(tx kv.Tx, who buildstore.Person, project, pkg string) (string, error) {
	list, err := buildstore.ExpandedPackagesSkipping(tx, project, func(p buildstore.Project) bool { return buildsvc.HiddenFrom(tx, who, p) })
	if err != nil {
		return "", err
	}
	for _, lp := range list {
		if lp.Name == pkg {
			return lp.Project, nil
		}
	}
	return "", fault.NotFound("unknown_package", "Unknown package %s in project %s", pkg, project)
}

// instantiate makes project's own copy of origin package k.
func instantiate(tx kv.Tx, who buildstore.Person, k buildstore.Package, project string, makeOriginOlder bool, now time.Time) error {
	v, err := buildsvc.ReadView(tx, who, k.Project, k.Name, "", true, "")
	if err != nil {
		return err
	}
	if v.Pending != nil {
		if err := buildstore.PutExpansion(tx, k.Project, k.Name, *v.Pending); err != nil {
			return err
		}
	}
	created := buildstore.Package{Project: project, Name: k.Name, Title: k.Title, Description: k.Description, URL: k.URL, Created: now}
	if err := buildstore.PutPackage(tx, created); err != nil {
		return err
	}
	if err := buildsvc.RecordMeta(tx, created, who.Login, "initialize package", now); err != nil {
		return err
	}
	var vrev uint64
	if makeOriginOlder {
		vrev = v.Tree.VRev + 1
	}
	if _, err := buildsvc.CommitTree(tx, project, k.Name, v.Tree.Files, who.Login, now, buildsvc.CommitOptions{Comment: "initialize package", VRev: vrev}); err != nil {
		return err
	}
	if !makeOriginOlder {
		return nil
	}
	last, ok, err := buildstore.LatestRevision(tx, k.Project, k.Name)
	if err != nil || !ok {
		return err
	}
	_, err = buildsvc.CommitTree(tx, k.Project, k.Name, last.Files, who.Login, now, buildsvc.CommitOptions{Comment: "makeoriginolder: instantiated in " + project, VRev: v.Tree.VRev + 2})
	return err
}
