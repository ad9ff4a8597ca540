package buildsvc

import (
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The lookups every operation starts with: the record, with the service's codes for a missing
// one, and the check of who may change it.

// LookupPackage reads a project's package, with the service's codes for a missing project
// (unknown_project) and a missing package (unknown_package).
func LookupPackage(tx kv.Tx, project, name string) (buildstore.Project, buildstore.Package, error) {
	p, err := buildstore.GetProject(tx, project)
	if err != nil {
		return p, buildstore.Package{}, NotFoundAs(err, "unknown_project")
	}
	k, err := buildstore.GetPackage(tx, project, name)
	return p, k, NotFoundAs(err, "unknown_package")
}

// LookupVisiblePackage is LookupPackage as who may see it: a project hidden from who is answered
// exactly as a missing one — 404 unknown_project, "Project not found: <name>" — whatever package
// is named with it, so a caller cannot tell a hidden project from a missing one, nor learn its
// packages (issue 32). Every name a caller gives goes through it (or VisibleProject, for a
// project alone) before anything else is said about it.
func LookupVisiblePackage(tx kv.Tx, who buildstore.Person, project, name string) (buildstore.Project, buildstore.Package, error) {
	if ProjectHiddenFrom(tx, who, project) {
		return buildstore.Project{}, buildstore.Package{}, ProjectNotFound(project)
	}
	return LookupPackage(tx, project, name)
}

// Writable checks that who may change the package's sources: a maintainer of the project or of
// the package (or Admin), and neither of them locked. A missing project or package is a 404;
// code is the refusal's code (the routes name it differently).
func Writable(tx kv.Tx, who buildstore.Person, project, pkg, code string) error {
	p, k, err := LookupPackage(tx, project, pkg)
	if err != nil {
		return err
	}
	if !Maintains(tx, who, p.Persons, p.Groups) && !Maintains(tx, who, k.Persons, k.Groups) {
		return Forbidden(code, "no permission to change the sources of package '%s' in project '%s': it needs a maintainer of the project or package", pkg, project)
	}
	if p.Locked || k.Locked {
		return Forbidden("project_locked", "The target project is locked")
	}
	return nil
}

// MaintainedProject reads a live project for a command of its maintainers (or Admin): 404
// unknown_project, 403 cmd_execution_no_permission, and, for a command that writes, 403
// project_locked on a locked project.
func MaintainedProject(tx kv.Tx, who buildstore.Person, name, cmd string, writes bool) (buildstore.Project, error) {
	return ProjectOfMaintainer(tx, who, name, writes,
		Forbidden("cmd_execution_no_permission", "no permission to execute command '%s' on project '%s'", cmd, name))
}

// ProjectOfMaintainer is the one check of every project write by its maintainers (or Admin):
// 404 unknown_project, denied when who maintains nothing of it, and, when writes, 403
// project_locked on a locked project (the lock commands themselves pass writes false).
func ProjectOfMaintainer(tx kv.Tx, who buildstore.Person, name string, writes bool, denied error) (buildstore.Project, error) {
	p, err := buildstore.GetProject(tx, name)
	if err != nil {
		return p, NotFoundAs(err, "unknown_project")
	}
	if !Maintains(tx, who, p.Persons, p.Groups) {
		return p, denied
	}
	if writes && p.Locked {
		return p, Forbidden("project_locked", "The target project is locked")
	}
	return p, nil
}

// CheckLink refuses a _link that is not a link document, as the backend verifies it on write:
// a broken target is allowed (the listing then shows the link error), a broken document not.
func CheckLink(data []byte) error {
	if _, err := buildstore.ParseLink(data); err != nil {
		return Invalid("link", "%v", err)
	}
	return nil
}
