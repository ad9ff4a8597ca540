package buildstore

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// commitFiles commits files (name → content) as the newest tree of project/pkg.
func commitFiles(tx *bbolt.Tx, project, pkg string, files map[string]string, now time.Time) error {
	var list []FileEntry
	for name, data := range files {
		sum, err := PutBlob(tx, []byte(data))
		if err != nil {
			return err
		}
		list = append(list, FileEntry{Name: name, MD5: sum})
	}
	_, err := CommitAs(tx, project, pkg, list, Revision{User: "alice"}, now)
	return err
}

func issuesOf(t *testing.T, db *store.DB, project, pkg string) []PackageIssue {
	t.Helper()
	var out []PackageIssue
	if err := db.View(func(tx *bbolt.Tx) (err error) { out, err = PackageIssues(tx, project, pkg); return err }); err != nil {
		t.Fatal(err)
	}
	return out
}

func placesOf(t *testing.T, db *store.DB, tracker, name string) []IssuePlace {
	t.Helper()
	var out []IssuePlace
	if err := db.View(func(tx *bbolt.Tx) (err error) { out, err = IssuePackages(tx, tracker, name); return err }); err != nil {
		t.Fatal(err)
	}
	return out
}

func issueWorld(t *testing.T, db *store.DB, now time.Time) {
	must(t, db, func(tx *bbolt.Tx) error {
		for _, tr := range []IssueTracker{
			{Name: "gh", Kind: "github", ShowURL: "https://github.com/@@@", Regex: `gh#([\w.-]+/[\w.-]+#\d+)`, Label: "gh#@@@"},
			{Name: "pocket", Kind: "other", ShowURL: "https://issues.test/@@@", Regex: `pocket#(\d+)`, Label: "pocket#@@@"},
		} {
			if err := PutTracker(tx, tr); err != nil {
				return err
			}
		}
		if err := PutProject(tx, Project{Name: "p"}); err != nil {
			return err
		}
		for _, k := range []string{"a", "b", "c"} {
			if err := PutPackage(tx, Package{Project: "p", Name: k}); err != nil {
				return err
			}
		}
		return commitFiles(tx, "p", "a", map[string]string{"a.spec": "Version: 1\n",
			"a.changes": "- fix the crash (pocket#1, gh#o/r#2)\n- old one (pocket#9)\n"}, now)
	})
}

// TestIssueIndex: commits, a link, a patchinfo, deletes and a tracker's removal leave the
// issue index saying exactly which live package names which issue, and how.
func TestIssueIndex(t *testing.T) {
	db := openTest(t)
	now := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	issueWorld(t, db, now)
	kept := func(tracker, name string) PackageIssue { return PackageIssue{tracker, name, IssueKept} }
	steps := []struct {
		name  string
		write func(tx *bbolt.Tx) error
		pkgs  map[string][]PackageIssue // package of p → its issues
		by    map[[2]string][]IssuePlace
	}{
		{"the first commit", func(*bbolt.Tx) error { return nil },
			map[string][]PackageIssue{"a": {kept("gh", "o/r#2"), kept("pocket", "1"), kept("pocket", "9")}, "b": nil},
			map[[2]string][]IssuePlace{{"pocket", "1"}: {{"p", "a", IssueKept}}}},
		{"a commit drops a mention", func(tx *bbolt.Tx) error {
			return commitFiles(tx, "p", "a", map[string]string{"a.changes": "- fix the crash (gh#o/r#2)\n- old one (pocket#9)\n"}, now.Add(time.Hour))
		}, map[string][]PackageIssue{"a": {kept("gh", "o/r#2"), kept("pocket", "9")}},
			map[[2]string][]IssuePlace{{"pocket", "1"}: nil, {"pocket", "9"}: {{"p", "a", IssueKept}}}},
		{"a link: added, deleted, changed, kept", func(tx *bbolt.Tx) error {
			return commitFiles(tx, "p", "b", map[string]string{"_link": `<link package="a"/>`,
				"a.changes": "- fix the crash (gh#o/r#2)\n- new (pocket#5)\n", "b.changes": "- see pocket#9 again\n- old one (pocket#9)\n"}, now)
		}, map[string][]PackageIssue{"b": {kept("gh", "o/r#2"), {"pocket", "5", IssueAdded}, {"pocket", "9", IssueChanged}}},
			map[[2]string][]IssuePlace{{"pocket", "9"}: {{"p", "a", IssueKept}, {"p", "b", IssueChanged}}}},
		{"a link that drops an issue", func(tx *bbolt.Tx) error {
			return commitFiles(tx, "p", "b", map[string]string{"_link": `<link package="a"/>`, "a.changes": "- fix the crash (gh#o/r#2)\n"}, now)
		}, map[string][]PackageIssue{"b": {kept("gh", "o/r#2"), {"pocket", "9", IssueDeleted}}}, nil},
		{"a patchinfo", func(tx *bbolt.Tx) error {
			return commitFiles(tx, "p", "c", map[string]string{"_patchinfo": `<patchinfo><issue tracker="pocket" id="7">x</issue>` +
				`<issue tracker="nope" id="1"/><category>bugfix</category></patchinfo>`, "c.changes": "pocket#8\n"}, now)
		}, map[string][]PackageIssue{"c": {kept("pocket", "7")}}, nil},
		{"package deleted", func(tx *bbolt.Tx) error { return DeletePackage(tx, "p", "a") },
			map[string][]PackageIssue{"a": nil}, map[[2]string][]IssuePlace{{"gh", "o/r#2"}: {{"p", "b", IssueKept}}}},
		{"package purged", func(tx *bbolt.Tx) error { return PurgePackage(tx, "p", "b") },
			map[string][]PackageIssue{"b": nil}, map[[2]string][]IssuePlace{{"gh", "o/r#2"}: nil, {"pocket", "9"}: nil}},
		{"project deleted", func(tx *bbolt.Tx) error { return DeleteProject(tx, "p") },
			map[string][]PackageIssue{"c": nil}, map[[2]string][]IssuePlace{{"pocket", "7"}: nil}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			must(t, db, s.write)
			for k, want := range s.pkgs {
				if got := issuesOf(t, db, "p", k); !reflect.DeepEqual(got, want) {
					t.Errorf("p/%s: %v, want %v", k, got, want)
				}
			}
			for k, want := range s.by {
				if got := placesOf(t, db, k[0], k[1]); !reflect.DeepEqual(got, want) {
					t.Errorf("%s#%s: %v, want %v", k[0], k[1], got, want)
				}
			}
		})
	}
	// The records stay (OBS keeps its issues), dated by the first mention, without a state.
	must(t, db, func(tx *bbolt.Tx) error {
		i, err := GetIssue(tx, "pocket", "1")
		if err != nil || !i.Created.Equal(now) || i.State != "" {
			t.Errorf("pocket#1: %+v %v", i, err)
		}
		if _, err := GetIssue(tx, "nope", "1"); err == nil {
			t.Error("an issue of an unknown tracker was kept")
		}
		return DeleteTracker(tx, "pocket")
	})
	must(t, db, func(tx *bbolt.Tx) error {
		if _, err := GetIssue(tx, "pocket", "1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a deleted tracker's issue: %v", err)
		}
		if _, err := GetIssue(tx, "gh", "o/r#2"); err != nil {
			t.Errorf("another tracker's issue: %v", err)
		}
		return nil
	})
}

// TestIssueIndexMigration: a data file written before the issue index gets it (and the issue
// records) filled from its newest revisions when it is opened; tombstones stay out.
func TestIssueIndexMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := store.Open(path, store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	issueWorld(t, db, now)
	must(t, db, func(tx *bbolt.Tx) error {
		if err := commitFiles(tx, "p", "b", map[string]string{"b.changes": "pocket#3\n"}, now); err != nil {
			return err
		}
		return DeletePackage(tx, "p", "b")
	})
	// Make it the file version 3 wrote (the issue index is schema 4's): no issue buckets.
	db = reopenOld(t, db, path, 3, func(tx *bbolt.Tx) error {
		for _, b := range []string{store.BuildIssueIndex, store.BuildIssues} {
			if err := tx.DeleteBucket([]byte(b)); err != nil {
				return err
			}
		}
		return nil
	})
	defer db.Close()
	want := []PackageIssue{{"gh", "o/r#2", IssueKept}, {"pocket", "1", IssueKept}, {"pocket", "9", IssueKept}}
	if got := issuesOf(t, db, "p", "a"); !reflect.DeepEqual(got, want) {
		t.Errorf("p/a: %v, want %v", got, want)
	}
	if got := placesOf(t, db, "pocket", "3"); got != nil {
		t.Errorf("a tombstone's issue: %v", got)
	}
	must(t, db, func(tx *bbolt.Tx) error {
		if i, err := GetIssue(tx, "pocket", "1"); err != nil || !i.Created.Equal(now) {
			t.Errorf("pocket#1: %+v %v", i, err)
		}
		return nil
	})
}
