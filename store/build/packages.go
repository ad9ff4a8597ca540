package build

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// Devel points a package at the project (and package) where it is developed.
type Devel struct {
	Project string `json:"project,omitempty"`
	Package string `json:"package,omitempty"`
}

// Package is a package's meta (its sources are Revisions, kept under the same names).
type Package struct {
	Project     string    `json:"project"`
	Name        string    `json:"name"`
	Title       string    `json:"title"`
	Description string    `json:"description"`
	Devel       *Devel    `json:"devel,omitempty"`
	Persons     []Role    `json:"persons,omitempty"`
	Groups      []Role    `json:"groups,omitempty"`
	Flags       []Flag    `json:"flags,omitempty"`
	Locked      bool      `json:"locked,omitempty"`
	URL         string    `json:"url,omitempty"`
	Created     time.Time `json:"created"`
}

// packageKey is project 0x00 package: a project's packages are one key prefix, in name order.
func packageKey(project, name string) []byte {
	return append(append([]byte(project), 0), name...)
}

// GetPackage returns the package; the not-found message is the service's own.
func GetPackage(tx *bbolt.Tx, project, name string) (Package, error) {
	k, err := store.Get[Package](tx, store.BuildPackages, packageKey(project, name))
	if err != nil {
		return k, store.NotFoundf("Package not found: %s/%s", project, name)
	}
	return k, nil
}

// PutPackage stores a package.
func PutPackage(tx *bbolt.Tx, k Package) error {
	return store.Put(tx, store.BuildPackages, packageKey(k.Project, k.Name), k)
}

// Packages lists a project's packages, by name.
func Packages(tx *bbolt.Tx, project string) ([]Package, error) {
	var out []Package
	err := store.Each(tx, store.BuildPackages, append([]byte(project), 0), func(_ []byte, k Package) (bool, error) {
		out = append(out, k)
		return true, nil
	})
	return out, err
}

// DeletePackage removes a package with its revision history (deleted packages are not kept
// yet, so a package created again under the name starts at revision 1).
func DeletePackage(tx *bbolt.Tx, project, name string) error {
	if err := DeleteRevisions(tx, project, name); err != nil {
		return err
	}
	if err := store.Delete(tx, store.BuildPackages, packageKey(project, name)); err != nil {
		return store.NotFoundf("Package not found: %s/%s", project, name)
	}
	return nil
}
