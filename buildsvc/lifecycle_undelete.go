package buildsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Undelete: deleted projects and packages are tombstones (buildstore.DeleteProject,
// DeletePackage) that keep their histories; cmd=undelete brings them back, and the history
// shows the restore.

// UndeletePackage restores the deleted package project/pkg (a maintainer of the project may).
// The service answers 404 for a missing project, 400 package_exists for a live package, 404
// for one never deleted, then the permission.
func (s *Service) UndeletePackage(who buildstore.Person, project, pkg, comment string) error {
	return s.db.Write(func(tx kv.Tx) error {
		p, err := buildstore.GetProject(tx, project)
		if err != nil {
			return NotFoundAs(err, "unknown_project")
		}
		if _, err := buildstore.GetPackage(tx, project, pkg); err == nil {
			return BadRequest("package_exists", "the package '%s/%s' exists", project, pkg)
		}
		if _, err := buildstore.GetDeletedPackage(tx, project, pkg); err != nil {
			return NotFoundAs(err, "unknown_package")
		}
		if !Maintains(tx, who, p.Persons, p.Groups) {
			return Forbidden("cmd_execution_no_permission", "no permission to undelete package '%s' in project '%s': it needs a maintainer of the project", pkg, project)
		}
		return restorePackage(tx, project, pkg, who.Login, comment, s.clk.Now())
	})
}

// UndeleteProject restores a deleted project with the packages deleted with it, each getting
// a revision with its last tree. The service checks the permission first (403), then that the
// project is not there already (400 project_exists), then that it was deleted (404).
func (s *Service) UndeleteProject(who buildstore.Person, name, comment string) error {
	return s.db.Write(func(tx kv.Tx) error {
		if !MayRestoreProject(tx, who, name) {
			return Forbidden("cmd_execution_no_permission", "no permission to execute command 'undelete': restoring project '%s' needs the right to create it", name)
		}
		if err := buildstore.CheckProject(tx, name); err == nil {
			return BadRequest("project_exists", "project '%s' already exists", name)
		}
		restore, err := buildstore.UndeleteProject(tx, name)
		if err != nil {
			return NotFoundAs(err, "unknown_project")
		}
		for _, k := range restore {
			if err := restorePackage(tx, name, k, who.Login, comment, s.clk.Now()); err != nil {
				return err
			}
		}
		return nil
	})
}

// restorePackage brings a deleted package back: its tombstone is cleared and, when it had
// commits, a revision with its last tree is appended, so the history shows the restore (the
// backend's undelete_rev). A package without commits gets none, as the backend undeletes
// sources only when there were some.
func restorePackage(tx kv.Tx, project, pkg, user, comment string, now time.Time) error {
	if err := buildstore.UndeletePackage(tx, project, pkg); err != nil {
		return NotFoundAs(err, "unknown_package")
	}
	last, ok, err := buildstore.LatestRevision(tx, project, pkg)
	if err != nil || !ok {
		return err
	}
	_, err = CommitTree(tx, project, pkg, last.Files, user, now, CommitOptions{Comment: comment})
	return err
}

// MayRestoreProject reports who may undelete a project, and so see it among the deleted ones:
// whoever may create a project of that name (Admin, the owner of the home tree, a maintainer
// of the nearest existing parent), as the real service's can_create_project? check.
func MayRestoreProject(tx kv.Tx, who buildstore.Person, name string) bool {
	return MayCreateProject(tx, who, name)
}

// VisibleDeletedProject reads a tombstone for who: 404 unknown_project when there is none or
// who may not restore it (a deleted project is hidden like a missing one).
func VisibleDeletedProject(tx kv.Tx, who buildstore.Person, name string) (buildstore.Project, error) {
	p, err := buildstore.GetDeletedProject(tx, name)
	if err != nil || !MayRestoreProject(tx, who, name) {
		return buildstore.Project{}, NotFoundAs(store.NotFoundf("Project not found: %s", name), "unknown_project")
	}
	return p, nil
}
