package buildstore

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// places reads where holder holds role.
func places(t *testing.T, db *store.DB, holder, role string) []RolePlace {
	t.Helper()
	var out []RolePlace
	if err := db.View(func(tx kv.Tx) (err error) {
		out, err = RolePlaces(tx, holder, role)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRoleIndex: every write of a project or package record — put, role change, delete,
// undelete, purge, a new project over a tombstone — leaves the index saying exactly who holds
// which role in the live records.
func TestRoleIndex(t *testing.T) {
	db := openTest(t)
	mt := []Role{{ID: "alice", Role: RoleMaintainer}, {ID: "bob", Role: "reviewer"}}
	grp := []Role{{ID: "team", Role: RoleMaintainer}}
	steps := []struct {
		name  string
		write func(tx kv.Tx) error
		// want: holder/role → places
		want map[[2]string][]RolePlace
	}{
		{"project and packages", func(tx kv.Tx) error {
			if err := PutProject(tx, Project{Name: "p", Persons: mt, Groups: grp}); err != nil {
				return err
			}
			if err := PutPackage(tx, Package{Project: "p", Name: "a", Persons: []Role{{ID: "carol", Role: RoleMaintainer}}}); err != nil {
				return err
			}
			return PutPackage(tx, Package{Project: "p", Name: "b", Groups: []Role{{ID: "team", Role: "bugowner"}}})
		}, map[[2]string][]RolePlace{
			{"alice", RoleMaintainer}:             {{"p", ""}},
			{"bob", "reviewer"}:                   {{"p", ""}},
			{"carol", RoleMaintainer}:             {{"p", "a"}},
			{GroupHolder("team"), RoleMaintainer}: {{"p", ""}},
			{GroupHolder("team"), "bugowner"}:     {{"p", "b"}},
			{"bob", RoleMaintainer}:               nil,
		}},
		{"roles change", func(tx kv.Tx) error {
			return PutProject(tx, Project{Name: "p", Persons: []Role{{ID: "bob", Role: RoleMaintainer}}})
		}, map[[2]string][]RolePlace{
			{"alice", RoleMaintainer}:             nil,
			{"bob", "reviewer"}:                   nil,
			{"bob", RoleMaintainer}:               {{"p", ""}},
			{GroupHolder("team"), RoleMaintainer}: nil,
			{"carol", RoleMaintainer}:             {{"p", "a"}},
		}},
		{"package deleted", func(tx kv.Tx) error { return DeletePackage(tx, "p", "a") },
			map[[2]string][]RolePlace{{"carol", RoleMaintainer}: nil}},
		{"package undeleted", func(tx kv.Tx) error { return UndeletePackage(tx, "p", "a") },
			map[[2]string][]RolePlace{{"carol", RoleMaintainer}: {{"p", "a"}}}},
		{"project deleted", func(tx kv.Tx) error { return DeleteProject(tx, "p") },
			map[[2]string][]RolePlace{{"bob", RoleMaintainer}: nil, {"carol", RoleMaintainer}: nil, {GroupHolder("team"), "bugowner"}: nil}},
		{"project undeleted", func(tx kv.Tx) error {
			restore, err := UndeleteProject(tx, "p")
			for _, k := range restore {
				if err == nil {
					err = UndeletePackage(tx, "p", k)
				}
			}
			return err
		}, map[[2]string][]RolePlace{{"bob", RoleMaintainer}: {{"p", ""}}, {"carol", RoleMaintainer}: {{"p", "a"}}}},
		{"package purged", func(tx kv.Tx) error { return PurgePackage(tx, "p", "a") },
			map[[2]string][]RolePlace{{"carol", RoleMaintainer}: nil, {GroupHolder("team"), "bugowner"}: {{"p", "b"}}}},
		{"new project over a tombstone", func(tx kv.Tx) error {
			if err := DeleteProject(tx, "p"); err != nil {
				return err
			}
			return PutProject(tx, Project{Name: "p", Persons: []Role{{ID: "dora", Role: RoleMaintainer}}})
		}, map[[2]string][]RolePlace{{"dora", RoleMaintainer}: {{"p", ""}}, {"bob", RoleMaintainer}: nil, {GroupHolder("team"), "bugowner"}: nil}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			must(t, db, s.write)
			for k, want := range s.want {
				if got := places(t, db, k[0], k[1]); !reflect.DeepEqual(got, want) {
					t.Errorf("%s as %s: %v, want %v", k[0], k[1], got, want)
				}
			}
		})
	}
}

// TestRoleIndexMigration: a data file of schema version 1, written before the role index
// existed, gets the index filled from its metas when it is opened; tombstones stay out.
func TestRoleIndexMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := store.Open(path, store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	must(t, db, func(tx kv.Tx) error {
		for _, p := range []Project{
			{Name: "live", Persons: []Role{{ID: "alice", Role: RoleMaintainer}}},
			{Name: "gone", Persons: []Role{{ID: "alice", Role: RoleMaintainer}}, Deleted: true},
		} {
			if err := PutProject(tx, p); err != nil {
				return err
			}
		}
		return PutPackage(tx, Package{Project: "live", Name: "k", Groups: []Role{{ID: "team", Role: RoleMaintainer}}})
	})
	// Make it the file version 1 wrote: no role index bucket.
	db = reopenOld(t, db, path, 1, func(tx kv.Tx) error { return tx.DeleteBucket([]byte(store.BuildRoleIndex)) })
	defer db.Close()
	if got := places(t, db, "alice", RoleMaintainer); !reflect.DeepEqual(got, []RolePlace{{"live", ""}}) {
		t.Errorf("alice: %v", got)
	}
	if got := places(t, db, GroupHolder("team"), RoleMaintainer); !reflect.DeepEqual(got, []RolePlace{{"live", "k"}}) {
		t.Errorf("team: %v", got)
	}
}
