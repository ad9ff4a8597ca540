package buildstore

import (
	"bytes"
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The role index (store.BuildRoleIndex) answers "where does this person or group hold this
// role" with one cursor seek, where the metas would have to be read one by one: the request
// collection asks it for every user it lists ("maintainer" of a request's target, reviewer for
// a project). A key is holder 0x00 role 0x00 project 0x00 package with an empty value; the
// holder is a login or GroupHolder(title) (logins cannot hold ':'), the package "" for a role in
// the project itself. Only live records are in it: a tombstone holds no roles, as a deleted
// project holds none on the real service. putProjectRecord, putPackageRecord and PurgePackage —
// the only writers of project and package records — keep it in step in their transaction.

func init() { store.RegisterIndexBuilder(store.BuildRoleIndex, rebuildRoleIndex) }

// GroupHolder is the role index's holder for the group called title.
func GroupHolder(title string) string { return "group:" + title }

// RolePlace is where a role is held: a project, or a package of it.
type RolePlace struct {
	Project string
	Package string // "" for the project itself
}

// RolePlaces lists where holder (a login or GroupHolder) holds role, in project and package
// order; a project's own entry comes before its packages'.
func RolePlaces(tx kv.Tx, holder, role string) ([]RolePlace, error) {
	b, err := store.Bucket(tx, store.BuildRoleIndex)
	if err != nil {
		return nil, err
	}
	prefix := []byte(holder + sep + role + sep)
	var out []RolePlace
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		project, pkg, ok := strings.Cut(string(k[len(prefix):]), sep)
		if ok {
			out = append(out, RolePlace{Project: project, Package: pkg})
		}
	}
	return out, nil
}

// roleKey is the index key of holder's role in project (and package).
func roleKey(holder, role, project, pkg string) []byte {
	return []byte(holder + sep + role + sep + project + sep + pkg)
}

// roleKeys lists the index keys of one record's roles; none for a tombstone.
func roleKeys(project, pkg string, persons, groups []Role, deleted bool) [][]byte {
	if deleted {
		return nil
	}
	keys := make([][]byte, 0, len(persons)+len(groups))
	for _, r := range persons {
		keys = append(keys, roleKey(r.ID, r.Role, project, pkg))
	}
	for _, r := range groups {
		keys = append(keys, roleKey(GroupHolder(r.ID), r.Role, project, pkg))
	}
	return keys
}

func projectRoleKeys(p Project) [][]byte {
	return roleKeys(p.Name, "", p.Persons, p.Groups, p.Deleted)
}

func packageRoleKeys(k Package) [][]byte {
	return roleKeys(k.Project, k.Name, k.Persons, k.Groups, k.Deleted)
}

// indexProjectRoles moves the index from the stored record of p's name to p.
func indexProjectRoles(tx kv.Tx, p Project) error {
	var old [][]byte
	if was, err := store.Get[Project](tx, store.BuildProjects, []byte(p.Name)); err == nil {
		old = projectRoleKeys(was)
	}
	return moveRoleKeys(tx, old, projectRoleKeys(p))
}

// indexPackageRoles moves the index from the stored record of project/name to k (nil: the
// record goes away).
func indexPackageRoles(tx kv.Tx, project, name string, k *Package) error {
	var old, now [][]byte
	if was, err := store.Get[Package](tx, store.BuildPackages, packageKey(project, name)); err == nil {
		old = packageRoleKeys(was)
	}
	if k != nil {
		now = packageRoleKeys(*k)
	}
	return moveRoleKeys(tx, old, now)
}

// moveRoleKeys deletes the keys of old that now lacks and puts those of now.
func moveRoleKeys(tx kv.Tx, old, now [][]byte) error {
	if len(old) == 0 && len(now) == 0 {
		return nil
	}
	b, err := store.Bucket(tx, store.BuildRoleIndex)
	if err != nil {
		return err
	}
	for _, k := range old {
		if !containsKey(now, k) {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
	}
	for _, k := range now {
		if err := b.Put(k, nil); err != nil {
			return err
		}
	}
	return nil
}

func containsKey(list [][]byte, k []byte) bool {
	for _, x := range list {
		if bytes.Equal(x, k) {
			return true
		}
	}
	return false
}

// rebuildRoleIndex fills the empty role index from every stored project and package (the
// migration that introduced it). A file without the record buckets has nothing to index.
func rebuildRoleIndex(tx kv.Tx) error {
	idx := tx.Bucket([]byte(store.BuildRoleIndex))
	put := func(keys [][]byte) error {
		for _, k := range keys {
			if err := idx.Put(k, nil); err != nil {
				return err
			}
		}
		return nil
	}
	if tx.Bucket([]byte(store.BuildProjects)) != nil {
		if err := store.Each(tx, store.BuildProjects, nil, func(_ []byte, p Project) (bool, error) {
			return true, put(projectRoleKeys(p))
		}); err != nil {
			return err
		}
	}
	if tx.Bucket([]byte(store.BuildPackages)) == nil {
		return nil
	}
	return store.Each(tx, store.BuildPackages, nil, func(_ []byte, k Package) (bool, error) {
		return true, put(packageRoleKeys(k))
	})
}
