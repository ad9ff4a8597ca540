package buildstore

import (
	"testing"

	"github.com/pocketforge/pocketforge/store/kv"
)

// TestProjectMayHide: only a record with an access flag can hide its project.
func TestProjectMayHide(t *testing.T) {
	db := openTest(t)
	must(t, db, func(tx kv.Tx) error {
		if err := PutProject(tx, Project{Name: "open", Flags: []Flag{{Name: "build", Status: "disable"}}}); err != nil {
			return err
		}
		return PutProject(tx, Project{Name: "closed", Flags: []Flag{{Name: "access", Status: "disable"}}})
	})
	db.View(func(tx kv.Tx) error {
		for name, want := range map[string]bool{"open": false, "closed": true, "missing": false} {
			if got := ProjectMayHide(tx, name); got != want {
				t.Errorf("%s: %v, want %v", name, got, want)
			}
		}
		return nil
	})
}

// TestCheckProject: CheckProject answers as GetProject does — a live project passes; a
// tombstone and a missing project are not found — also for a live project whose text spells
// the tombstone mark, and for every record GetProject decodes.
func TestCheckProject(t *testing.T) {
	db := openTest(t)
	must(t, db, func(tx kv.Tx) error {
		for _, p := range []Project{
			{Name: "live"},
			{Name: "gone", Deleted: true},
			{Name: "tricky", Title: `"deleted":true`, Description: `{"deleted":true}`, Config: "\"deleted\":true\n",
				Persons: []Role{{ID: `"deleted":true`, Role: "maintainer"}}},
		} {
			if err := PutProject(tx, p); err != nil {
				return err
			}
		}
		return nil
	})
	db.View(func(tx kv.Tx) error {
		for _, name := range []string{"live", "gone", "tricky", "missing"} {
			_, want := GetProject(tx, name)
			got := CheckProject(tx, name)
			if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
				t.Errorf("%s: CheckProject %v, GetProject %v", name, got, want)
			}
		}
		return nil
	})
}
