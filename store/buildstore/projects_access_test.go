package buildstore

import (
	"testing"

	"go.etcd.io/bbolt"
)

// TestProjectMayHide: only a record with an access flag can hide its project.
func TestProjectMayHide(t *testing.T) {
	db := openTest(t)
	must(t, db, func(tx *bbolt.Tx) error {
		if err := PutProject(tx, Project{Name: "open", Flags: []Flag{{Name: "build", Status: "disable"}}}); err != nil {
			return err
		}
		return PutProject(tx, Project{Name: "closed", Flags: []Flag{{Name: "access", Status: "disable"}}})
	})
	db.View(func(tx *bbolt.Tx) error {
		for name, want := range map[string]bool{"open": false, "closed": true, "missing": false} {
			if got := ProjectMayHide(tx, name); got != want {
				t.Errorf("%s: %v, want %v", name, got, want)
			}
		}
		return nil
	})
}
