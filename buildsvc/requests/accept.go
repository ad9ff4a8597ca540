package requests

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/maintenance"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Accepting a request applies its actions, all in the accepting transaction, so a request is
// either accepted with every action done or refused with nothing changed:
//   - submit copies the source at rev (the newest without), expanded, into the target package
//     (created from the source's title and description if missing); the new revision is the
//     accepter's, carries the request number and the request's description as comment, and
//     the action records acceptinfo. sourceupdate cleanup then deletes the source package, and
//     its project when that is left empty and is not a home project; update and noupdate leave
//     the source alone (a branch is a link that follows the target's newest revision, so it
//     needs no relinking). updatelink and makeoriginolder are kept in the request but change
//     nothing here: links are not carried into the target and vrevs are not rewritten.
//   - delete deletes the target package, project (refused while other projects build against
//     it) or repository.
//   - add_role adds the role to the target package's or project's meta; set_bugowner makes the
//     person or group the only bugowner.
//   - change_devel points the target package's <devel> at the source package.
//   - maintenance_incident creates an incident below the target maintenance project (or uses
//     the one setincident chose) and copies the source packages into it; the action's target
//     then names the incident.
//   - maintenance_release releases the source package's sources into the target project.
//   - group changes nothing itself.
// The accepter needs to be able to write every target (locked projects refuse), as in OBS.

// acceptActions applies every action of r for who at now.
func acceptActions(tx kv.Tx, who buildstore.Person, r *buildstore.Request, now time.Time) error {
	for i := range r.Actions {
		a := &r.Actions[i]
		var err error
		switch a.Type {
		case "submit":
			err = acceptSubmit(tx, who, *r, a, now)
		case "delete":
			err = acceptDelete(tx, who, a.Target)
		case "add_role", "set_bugowner":
			err = acceptRole(tx, who, a, now)
		case "change_devel":
			err = acceptChangeDevel(tx, who, a, now)
		case "maintenance_incident":
			err = acceptIncident(tx, who, r, a, now)
		case "maintenance_release":
			err = buildsvc.ReleaseSources(tx, who, buildstore.Package{Project: a.Source.Project, Name: a.Source.Package}, a.Target.Project,
				"Release from request "+strconv.FormatUint(r.ID, 10), now)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// acceptSubmit copies a's source into its target (see the file comment).
func acceptSubmit(tx kv.Tx, who buildstore.Person, r buildstore.Request, a *buildstore.RequestAction, now time.Time) error {
	_, src, err := buildsvc.LookupPackage(tx, a.Source.Project, a.Source.Package)
	if err != nil {
		return err
	}
	v, err := buildsvc.ResolveView(tx, a.Source.Project, a.Source.Package, a.Source.Rev, true, "")
	if err != nil {
		return err
	}
	if v.Pending != nil {
		if err := buildstore.PutExpansion(tx, a.Source.Project, a.Source.Package, *v.Pending); err != nil {
			return err
		}
	}
	if err := buildsvc.EnsurePackage(tx, who, a.Target.Project, a.Target.Package, src, now); err != nil {
		return err
	}
	if err := buildsvc.Writable(tx, who, a.Target.Project, a.Target.Package, "post_request_no_permission"); err != nil {
		return err
	}
	old, _, err := buildstore.LatestRevision(tx, a.Target.Project, a.Target.Package)
	if err != nil {
		return err
	}
	c, err := buildsvc.CommitTree(tx, a.Target.Project, a.Target.Package, v.Tree.Files, who.Login, now,
		buildsvc.CommitOptions{Comment: r.Description, RequestID: r.ID})
	if err != nil {
		return err
	}
	osrc := old.SrcMD5
	if osrc == "" {
		osrc = buildstore.EmptySrcMD5
	}
	a.AcceptInfo = &buildstore.AcceptInfo{Rev: strconv.FormatUint(c.Revision.Rev, 10), SrcMD5: c.Revision.SrcMD5, OSrcMD5: osrc}
	if v.Expanded {
		a.AcceptInfo.XSrcMD5 = v.Tree.SrcMD5
	}
	if a.Options.SourceUpdate == "cleanup" {
		return cleanupSource(tx, a.Source.Project, a.Source.Package)
	}
	return nil
}

// cleanupSource deletes an accepted submit's source package, and its project when nothing is
// left in it and it is not a home project (home:<login>).
func cleanupSource(tx kv.Tx, project, pkg string) error {
	if err := buildstore.DeleteAttributes(tx, project, pkg); err != nil {
		return err
	}
	if err := buildstore.DeletePackage(tx, project, pkg); err != nil {
		return err
	}
	left, err := buildstore.PackageNames(tx, project, false)
	if err != nil || len(left) > 0 || isHomeProject(project) {
		return err
	}
	if deps, err := buildstore.DependentPaths(tx, project); err != nil || len(deps) > 0 {
		return err
	}
	return buildstore.DeleteProject(tx, project)
}

// isHomeProject reports whether name is a person's home project itself (home:<login>).
func isHomeProject(name string) bool {
	rest, ok := strings.CutPrefix(name, "home:")
	return ok && !strings.Contains(rest, ":")
}

// acceptDelete deletes the package, project or repository t names, as who.
func acceptDelete(tx kv.Tx, who buildstore.Person, t *buildstore.ActionTarget) error {
	switch {
	case t.Package != "":
		if err := buildsvc.Writable(tx, who, t.Project, t.Package, "post_request_no_permission"); err != nil {
			return err
		}
		if err := buildstore.DeleteAttributes(tx, t.Project, t.Package); err != nil {
			return err
		}
		return buildstore.DeletePackage(tx, t.Project, t.Package)
	case t.Repository != "":
		p, err := buildsvc.ProjectOfMaintainer(tx, who, t.Project, true, refuse("No permission to delete repository %s of project %s", t.Repository, t.Project))
		if err != nil {
			return err
		}
		p.Repositories = slices.DeleteFunc(p.Repositories, func(r buildstore.Repository) bool { return r.Name == t.Repository })
		return buildstore.PutProject(tx, p)
	}
	if _, err := buildsvc.ProjectOfMaintainer(tx, who, t.Project, true, refuse("No permission to delete project %s", t.Project)); err != nil {
		return err
	}
	deps, err := buildstore.DependentPaths(tx, t.Project)
	if err != nil {
		return err
	}
	if len(deps) > 0 {
		return buildsvc.BadRequest("repo_dependency", "Unable to delete project %s; following repositories depend on this project: %v", t.Project, deps)
	}
	return buildstore.DeleteProject(tx, t.Project)
}

// acceptRole gives the action's person or group its role in the target package or project.
func acceptRole(tx kv.Tx, who buildstore.Person, a *buildstore.RequestAction, now time.Time) error {
	list := func(persons, groups *[]buildstore.Role) {
		target, name := persons, ""
		if a.Person != nil {
			name = a.Person.Name
		} else {
			target, name = groups, a.Group.Name
		}
		role := "bugowner"
		if a.Type == "add_role" {
			role = roleOf(a)
		} else {
			*persons = slices.DeleteFunc(*persons, func(r buildstore.Role) bool { return r.Role == "bugowner" })
			*groups = slices.DeleteFunc(*groups, func(r buildstore.Role) bool { return r.Role == "bugowner" })
		}
		if !slices.Contains(*target, buildstore.Role{ID: name, Role: role}) {
			*target = append(*target, buildstore.Role{ID: name, Role: role})
		}
	}
	if a.Target.Package == "" {
		p, err := buildsvc.ProjectOfMaintainer(tx, who, a.Target.Project, true, refuse("No permission to change the roles of project %s", a.Target.Project))
		if err != nil {
			return err
		}
		list(&p.Persons, &p.Groups)
		return buildstore.PutProject(tx, p)
	}
	return editPackageMeta(tx, who, a.Target.Project, a.Target.Package, now, func(k *buildstore.Package) { list(&k.Persons, &k.Groups) })
}

// roleOf is the role an add_role action gives.
func roleOf(a *buildstore.RequestAction) string {
	if a.Person != nil {
		return a.Person.Role
	}
	return a.Group.Role
}

// acceptChangeDevel points the target package at the source package as its devel package.
func acceptChangeDevel(tx kv.Tx, who buildstore.Person, a *buildstore.RequestAction, now time.Time) error {
	return editPackageMeta(tx, who, a.Target.Project, a.Target.Package, now, func(k *buildstore.Package) {
		k.Devel = &buildstore.Devel{Project: a.Source.Project, Package: a.Source.Package}
	})
}

// editPackageMeta changes a package's meta as who (who must be able to write it) and records
// the meta revision.
func editPackageMeta(tx kv.Tx, who buildstore.Person, project, pkg string, now time.Time, edit func(*buildstore.Package)) error {
	if err := buildsvc.Writable(tx, who, project, pkg, "post_request_no_permission"); err != nil {
		return err
	}
	_, k, err := buildsvc.LookupPackage(tx, project, pkg)
	if err != nil {
		return err
	}
	edit(&k)
	if err := buildstore.PutPackage(tx, k); err != nil {
		return err
	}
	return buildsvc.RecordMeta(tx, k, who.Login, "", now)
}

// acceptIncident creates (or takes) the incident and copies the source packages into it.
func acceptIncident(tx kv.Tx, who buildstore.Person, r *buildstore.Request, a *buildstore.RequestAction, now time.Time) error {
	incident := a.Target.Project
	if t, _ := buildstore.GetProject(tx, incident); t.Kind != "maintenance_incident" {
		var err error
		if incident, err = maintenance.CreateIncident(tx, who, a.Target.Project, false, now); err != nil {
			return err
		}
	}
	var pkgs []buildstore.Package
	if a.Source.Package != "" {
		_, k, err := buildsvc.LookupPackage(tx, a.Source.Project, a.Source.Package)
		if err != nil {
			return err
		}
		pkgs = []buildstore.Package{k}
	} else {
		var err error
		if pkgs, err = buildstore.Packages(tx, a.Source.Project); err != nil {
			return err
		}
	}
	for _, k := range pkgs {
		if err := buildsvc.ReleaseSources(tx, who, k, incident, "Maintenance incident from request "+strconv.FormatUint(r.ID, 10), now); err != nil {
			return err
		}
	}
	a.Target.Project = incident
	return nil
}
