package buildstore

import (
	"bytes"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Devel points a package at the project (and package) where it is developed.
type Devel struct {
	Project string `json:"project,omitempty"`
	Package string `json:"package,omitempty"`
}

// Package is a package's meta (its sources are Revisions, kept under the same names).
type Package struct {
	Project     string `json:"project"`
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Devel       *Devel `json:"devel,omitempty"`
	Persons     []Role `json:"persons,omitempty"`
	Groups      []Role `json:"groups,omitempty"`
	Flags       []Flag `json:"flags,omitempty"`
	Locked      bool   `json:"locked,omitempty"`
	URL         string `json:"url,omitempty"`
	// SCMSync is the git repository the package's sources follow (<scmsync> of the meta,
	// OBS's git integration). The appliance fetches nothing: the farm stamps it, with the
	// commit a source revision stands for, into what it builds (buildsvc/farm_vcs.go).
	SCMSync string    `json:"scmsync,omitempty"`
	Created time.Time `json:"created"`
	// Deleted makes the record a tombstone: the package is gone from listings and lookups but
	// its meta and revisions stay, so GET ?deleted=1 lists it and cmd=undelete restores it.
	Deleted bool `json:"deleted,omitempty"`
	// DeletedWithProject marks a tombstone made by deleting the whole project: undeleting the
	// project restores exactly these, while packages deleted on their own stay deleted.
	DeletedWithProject bool `json:"deleted_with_project,omitempty"`
}

// packageKey is project 0x00 package: a project's packages are one key prefix, in name order.
func packageKey(project, name string) []byte {
	return append(append([]byte(project), 0), name...)
}

// GetPackage returns the package (not a deleted one); the not-found message is the service's own.
func GetPackage(tx kv.Tx, project, name string) (Package, error) {
	k, err := store.Get[Package](tx, store.BuildPackages, packageKey(project, name))
	if err != nil || k.Deleted {
		return Package{}, store.NotFoundf("Package not found: %s/%s", project, name)
	}
	return k, nil
}

// GetDeletedPackage returns the tombstone of a deleted package.
func GetDeletedPackage(tx kv.Tx, project, name string) (Package, error) {
	k, err := store.Get[Package](tx, store.BuildPackages, packageKey(project, name))
	if err != nil || !k.Deleted {
		return Package{}, store.NotFoundf("Deleted package not found: %s/%s", project, name)
	}
	return k, nil
}

// PutPackage stores a package. Storing over a tombstone starts a fresh history: the deleted
// revisions are dropped, as a package created anew under an old name has no past.
func PutPackage(tx kv.Tx, k Package) error {
	if _, err := GetDeletedPackage(tx, k.Project, k.Name); err == nil && !k.Deleted {
		if err := DeleteRevisions(tx, k.Project, k.Name); err != nil {
			return err
		}
	}
	return putPackageRecord(tx, k)
}

// Packages lists a project's packages by name, without the deleted ones.
func Packages(tx kv.Tx, project string) ([]Package, error) {
	return packagesWhere(tx, project, false)
}

// DeletedPackages lists a project's deleted packages (tombstones) by name.
func DeletedPackages(tx kv.Tx, project string) ([]Package, error) {
	return packagesWhere(tx, project, true)
}

// PackageNames lists the names of a project's packages (deleted ones when deleted is set) in
// name order, without decoding the records: osc asks for this listing on every `ls` and
// checkout, and a project may hold 20,000 packages. The name is the key's tail; whether a
// record is a tombstone is read from its JSON bytes: `"deleted":true` can only be the top-level
// field there (Deleted is omitted when false, and no nested record has a deleted field), since a
// quote inside any JSON string value is escaped.
func PackageNames(tx kv.Tx, project string, deleted bool) ([]string, error) {
	b, err := store.Bucket(tx, store.BuildPackages)
	if err != nil {
		return nil, err
	}
	prefix := append([]byte(project), 0)
	var out []string
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if bytes.Contains(v, tombstone) == deleted {
			out = append(out, string(k[len(prefix):]))
		}
	}
	return out, nil
}

// tombstone is how a deleted package's record marks itself in its JSON.
var tombstone = []byte(`"deleted":true`)

func packagesWhere(tx kv.Tx, project string, deleted bool) ([]Package, error) {
	var out []Package
	err := store.Each(tx, store.BuildPackages, append([]byte(project), 0), func(_ []byte, k Package) (bool, error) {
		if k.Deleted == deleted {
			out = append(out, k)
		}
		return true, nil
	})
	return out, err
}

// DeletePackage turns a package into a tombstone: its meta and revisions are kept for
// undelete; a pending upload and the comments, tags and messages on it are dropped.
func DeletePackage(tx kv.Tx, project, name string) error {
	k, err := GetPackage(tx, project, name)
	if err != nil {
		return err
	}
	if err := DropUpload(tx, project, name); err != nil {
		return err
	}
	if err := deletePackageComments(tx, project, name); err != nil {
		return err
	}
	if err := deletePackageTags(tx, project, name); err != nil {
		return err
	}
	if err := deletePackageMessages(tx, project, name); err != nil {
		return err
	}
	k.Deleted = true
	return putPackageRecord(tx, k)
}

// UndeletePackage clears a tombstone; the caller appends the restoring revision.
func UndeletePackage(tx kv.Tx, project, name string) error {
	k, err := GetDeletedPackage(tx, project, name)
	if err != nil {
		return err
	}
	k.Deleted, k.DeletedWithProject = false, false
	return putPackageRecord(tx, k)
}

// PurgePackage removes a package (live or deleted) with its history and upload: what creating a
// project over a deleted one does to the deleted project's packages.
func PurgePackage(tx kv.Tx, project, name string) error {
	if err := DeleteRevisions(tx, project, name); err != nil {
		return err
	}
	if err := DropUpload(tx, project, name); err != nil {
		return err
	}
	if err := MarkDirty(tx, project); err != nil {
		return err
	}
	if err := indexPackageRoles(tx, project, name, nil); err != nil {
		return err
	}
	if err := dropPackageIssues(tx, project, name); err != nil {
		return err
	}
	return store.Delete(tx, store.BuildPackages, packageKey(project, name))
}
