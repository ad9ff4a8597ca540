package buildsvc

import (
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// A package's meta: read, create or replace, and delete.

// PackageMeta reads the package's record (404 unknown_project or unknown_package).
func (s *Service) PackageMeta(project, pkg string) (k buildstore.Package, err error) {
	err = s.db.View(func(tx kv.Tx) error { _, k, err = LookupPackage(tx, project, pkg); return err })
	return k, err
}

// PutPackageMeta creates or replaces the package k (its Project and Name say which) for who: a
// maintainer of the project (or of an existing package) may, or Admin, and neither may be
// locked. The write is recorded in the meta history with comment.
func (s *Service) PutPackageMeta(who buildstore.Person, k buildstore.Package, comment string) error {
	project, name, now := k.Project, k.Name, s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		p, old, err := LookupPackage(tx, project, name)
		if p.Name == "" {
			return err
		}
		if !Maintains(tx, who, p.Persons, p.Groups) && (err != nil || !Maintains(tx, who, old.Persons, old.Groups)) {
			return Forbidden("modify_package_no_permission", "no permission to change package '%s' in project '%s': it needs a maintainer of the project or package", name, project)
		}
		if p.Locked || old.Locked {
			return Forbidden("project_locked", "The target project is locked")
		}
		if err := checkPackage(tx, k); err != nil {
			return err
		}
		k := k // the transaction may run twice
		k.Created = old.Created
		if err != nil {
			k.Created = now
		}
		if err := buildstore.PutPackage(tx, k); err != nil {
			return err
		}
		return RecordMeta(tx, k, who.Login, comment, now)
	})
}

// checkPackage runs the content rules on a package record: roles, flags, an existing devel
// project.
func checkPackage(tx kv.Tx, k buildstore.Package) error {
	if err := CheckRoles(tx, "package", k.Persons, k.Groups); err != nil {
		return err
	}
	if err := CheckFlags("package", k.Flags); err != nil {
		return err
	}
	if k.Devel != nil && k.Devel.Project != "" {
		if err := buildstore.CheckProject(tx, k.Devel.Project); err != nil {
			return Invalid("package", "devel %v", err)
		}
	}
	return nil
}

// DeletePackage marks a package deleted for who (a maintainer of the project or package, or
// Admin; not locked): a tombstone keeps its meta and history, so the deleted listing shows it
// and an undelete brings it back. Its attribute values go (the service keeps them in its
// database rows, which a delete destroys).
func (s *Service) DeletePackage(who buildstore.Person, project, name string) error {
	return s.db.Write(func(tx kv.Tx) error {
		p, k, err := LookupPackage(tx, project, name)
		if err != nil {
			return err
		}
		if !Maintains(tx, who, p.Persons, p.Groups) && !Maintains(tx, who, k.Persons, k.Groups) {
			return Forbidden("delete_package_no_permission", "no permission to delete package '%s' in project '%s'", name, project)
		}
		if p.Locked || k.Locked {
			return Forbidden("project_locked", "The target project is locked")
		}
		if err := buildstore.DeleteAttributes(tx, project, name); err != nil {
			return err
		}
		return buildstore.DeletePackage(tx, project, name)
	})
}
