package buildstore

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

func openTest(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// must runs fn in a write transaction and fails the test on an error.
func must(t *testing.T, db *store.DB, fn func(tx kv.Tx) error) {
	t.Helper()
	if err := db.Write(fn); err != nil {
		t.Fatal(err)
	}
}

// TestProjectTombstones: a deleted project keeps its packages (as tombstones), history, key and
// patterns; undelete hands back exactly the packages deleted with it; a new project over a
// tombstone starts empty.
func TestProjectTombstones(t *testing.T) {
	db := openTest(t)
	now := time.Unix(1_700_000_000, 0)
	must(t, db, func(tx kv.Tx) error {
		for _, p := range []Project{
			{Name: "p", Repositories: []Repository{{Name: "r"}}},
			{Name: "q", Repositories: []Repository{{Name: "r", Paths: []Path{{Project: "p", Repository: "r"}}}}},
		} {
			if err := PutProject(tx, p); err != nil {
				return err
			}
		}
		for _, k := range []string{"a", "b"} {
			if err := PutPackage(tx, Package{Project: "p", Name: k}); err != nil {
				return err
			}
		}
		sum, err := PutBlob(tx, []byte("x"))
		if err != nil {
			return err
		}
		if _, err := AppendRevision(tx, "p", "a", []FileEntry{{Name: "f", MD5: sum}}, Revision{User: "u", Comment: "c"}, now); err != nil {
			return err
		}
		if err := PutSignKey(tx, "p", SignKey{Public: "pub"}); err != nil {
			return err
		}
		if err := PutPattern(tx, "p", Pattern{Name: "x", Data: []byte("<pattern/>")}); err != nil {
			return err
		}
		if err := DeletePackage(tx, "p", "b"); err != nil {
			return err
		}
		return DeleteProject(tx, "p")
	})
	db.View(func(tx kv.Tx) error {
		if _, err := GetProject(tx, "p"); err == nil {
			t.Error("deleted project still found")
		}
		if _, err := GetDeletedProject(tx, "p"); err != nil {
			t.Error(err)
		}
		live, _ := Projects(tx)
		gone, _ := DeletedProjects(tx)
		if len(live) != 1 || live[0].Name != "q" || len(gone) != 1 || gone[0].Name != "p" {
			t.Errorf("live %v, deleted %v", live, gone)
		}
		if q, _ := GetProject(tx, "q"); q.Repositories[0].Paths[0].Project != "deleted" {
			t.Errorf("path not repointed: %v", q.Repositories)
		}
		if names, _ := PackageNames(tx, "p", true); fmt.Sprint(names) != "[a b]" {
			t.Errorf("deleted packages %v", names)
		}
		if _, err := GetPackage(tx, "p", "a"); err == nil {
			t.Error("package of a deleted project still found")
		}
		return nil
	})
	if err := db.Write(func(tx kv.Tx) error { return DeleteProject(tx, "p") }); err == nil {
		t.Error("deleting a deleted project worked")
	}
	var restore []string
	must(t, db, func(tx kv.Tx) (err error) { restore, err = UndeleteProject(tx, "p"); return err })
	if fmt.Sprint(restore) != "[a]" {
		t.Fatalf("restore %v (b was deleted on its own)", restore)
	}
	must(t, db, func(tx kv.Tx) error {
		if err := UndeletePackage(tx, "p", "a"); err != nil {
			return err
		}
		return DeleteProject(tx, "p")
	})
	// A new project over the tombstone: no packages, no history, no key, no patterns.
	must(t, db, func(tx kv.Tx) error { return PutProject(tx, Project{Name: "p"}) })
	db.View(func(tx kv.Tx) error {
		live, _ := PackageNames(tx, "p", false)
		gone, _ := PackageNames(tx, "p", true)
		revs, _ := Revisions(tx, "p", "a")
		_, hasKey, _ := GetSignKey(tx, "p")
		pats, _ := Patterns(tx, "p")
		if len(live)+len(gone)+len(revs)+len(pats) != 0 || hasKey {
			t.Errorf("left over: %v %v %d revisions, key %v, %d patterns", live, gone, len(revs), hasKey, len(pats))
		}
		return nil
	})
}

// TestExpandedPackages: own packages first and winning, links followed depth first, cycles and
// missing projects harmless, names sorted case-insensitively.
func TestExpandedPackages(t *testing.T) {
	db := openTest(t)
	must(t, db, func(tx kv.Tx) error {
		for _, p := range []Project{
			{Name: "top", Links: []Link{{Project: "mid"}, {Project: "gone"}}},
			{Name: "mid", Links: []Link{{Project: "base"}}},
			{Name: "base", Links: []Link{{Project: "top"}}}, // a cycle back
		} {
			if err := PutProject(tx, p); err != nil {
				return err
			}
		}
		for _, k := range []Package{{Project: "top", Name: "Zed"}, {Project: "top", Name: "shared"},
			{Project: "mid", Name: "shared"}, {Project: "mid", Name: "mine"}, {Project: "base", Name: "alpha"}} {
			if err := PutPackage(tx, k); err != nil {
				return err
			}
		}
		return nil
	})
	db.View(func(tx kv.Tx) error {
		got, err := ExpandedPackages(tx, "top")
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != "[{alpha base} {mine mid} {shared top} {Zed top}]" {
			t.Errorf("expanded %v", got)
		}
		linking, _ := LinkingProjects(tx, "mid")
		if fmt.Sprint(linking) != "[top]" {
			t.Errorf("linking %v", linking)
		}
		return nil
	})
}

// TestPatternsAndKeys: the accessors' not-found cases and the per-project prefix.
func TestPatternsAndKeys(t *testing.T) {
	db := openTest(t)
	must(t, db, func(tx kv.Tx) error {
		for _, p := range []struct{ project, name string }{{"p", "b"}, {"p", "a"}, {"p2", "c"}} {
			if err := PutPattern(tx, p.project, Pattern{Name: p.name, Data: []byte(p.name)}); err != nil {
				return err
			}
		}
		if err := DeleteSignKey(tx, "none"); err != nil {
			t.Errorf("deleting no key: %v", err)
		}
		if err := DeletePattern(tx, "p", "zzz"); err == nil {
			t.Error("deleted a missing pattern")
		}
		return nil
	})
	db.View(func(tx kv.Tx) error {
		all, _ := Patterns(tx, "p")
		if len(all) != 2 || all[0].Name != "a" || all[1].MD5 != MD5Hex([]byte("b")) {
			t.Errorf("patterns %+v", all)
		}
		if _, err := GetPattern(tx, "p", "c"); err == nil {
			t.Error("p2's pattern found in p")
		}
		if _, ok, err := GetSignKey(tx, "p"); ok || err != nil {
			t.Errorf("a key out of nowhere: %v %v", ok, err)
		}
		return nil
	})
}
