package buildsvc

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/kv/boltkv"
)

// openTestStore is an empty data file, closed when the test ends.
func openTestStore(t *testing.T) *store.DB {
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

// reopenOld closes db, makes its file the one schema version wrote (edit undoes what came after
// it: drops a bucket, rewrites an index's keys) and opens it again, migrating it. The caller
// closes the answer.
func reopenOld(t *testing.T, db *store.DB, path string, version uint64, edit func(tx kv.Tx) error) *store.DB {
	t.Helper()
	db.Close()
	raw, err := boltkv.Open(path, boltkv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := raw.Update(func(tx kv.Tx) error {
		if err := edit(tx); err != nil {
			return err
		}
		return tx.Bucket([]byte(store.BucketMeta)).Put([]byte("schema_version"), store.Itob(version))
	}); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db, err = store.Open(path, store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// commitFiles commits files (name → content) as the newest tree of project/pkg.
func commitFiles(tx kv.Tx, project, pkg string, files map[string]string, now time.Time) error {
	var list []buildstore.FileEntry
	for name, data := range files {
		sum, err := buildstore.PutBlob(tx, []byte(data))
		if err != nil {
			return err
		}
		list = append(list, buildstore.FileEntry{Name: name, MD5: sum})
	}
	_, err := CommitRevision(tx, project, pkg, list, buildstore.Revision{User: "alice"}, now)
	return err
}

// pi and place are an issue a package names and a package that names an issue (keyed: vet
// wants another package's structs so).
func pi(tracker, name, change string) buildstore.PackageIssue {
	return buildstore.PackageIssue{Tracker: tracker, Name: name, Change: change}
}

func place(project, pkg, change string) buildstore.IssuePlace {
	return buildstore.IssuePlace{Project: project, Package: pkg, Change: change}
}

func issuesOf(t *testing.T, db *store.DB, project, pkg string) []buildstore.PackageIssue {
	t.Helper()
	var out []buildstore.PackageIssue
	if err := db.View(func(tx kv.Tx) (err error) { out, err = buildstore.PackageIssues(tx, project, pkg); return err }); err != nil {
		t.Fatal(err)
	}
	return out
}

func placesOf(t *testing.T, db *store.DB, tracker, name string) []buildstore.IssuePlace {
	t.Helper()
	var out []buildstore.IssuePlace
	if err := db.View(func(tx kv.Tx) (err error) { out, err = buildstore.IssuePackages(tx, tracker, name); return err }); err != nil {
		t.Fatal(err)
	}
	return out
}

func issueWorld(t *testing.T, db *store.DB, now time.Time) {
	must(t, db, func(tx kv.Tx) error {
		for _, tr := range []buildstore.IssueTracker{
			{Name: "gh", Kind: "github", ShowURL: "https://github.com/@@@", Regex: `gh#([\w.-]+/[\w.-]+#\d+)`, Label: "gh#@@@"},
			{Name: "pocket", Kind: "other", ShowURL: "https://issues.test/@@@", Regex: `pocket#(\d+)`, Label: "pocket#@@@"},
		} {
			if err := buildstore.PutTracker(tx, tr); err != nil {
				return err
			}
		}
		if err := buildstore.PutProject(tx, buildstore.Project{Name: "p"}); err != nil {
			return err
		}
		for _, k := range []string{"a", "b", "c"} {
			if err := buildstore.PutPackage(tx, buildstore.Package{Project: "p", Name: k}); err != nil {
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
	db := openTestStore(t)
	now := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	issueWorld(t, db, now)
	kept := func(tracker, name string) buildstore.PackageIssue { return pi(tracker, name, buildstore.IssueKept) }
	steps := []struct {
		name  string
		write func(tx kv.Tx) error
		pkgs  map[string][]buildstore.PackageIssue // package of p → its issues
		by    map[[2]string][]buildstore.IssuePlace
	}{
		{"the first commit", func(kv.Tx) error { return nil },
			map[string][]buildstore.PackageIssue{"a": {kept("gh", "o/r#2"), kept("pocket", "1"), kept("pocket", "9")}, "b": nil},
			map[[2]string][]buildstore.IssuePlace{{"pocket", "1"}: {place("p", "a", buildstore.IssueKept)}}},
		{"a commit drops a mention", func(tx kv.Tx) error {
			return commitFiles(tx, "p", "a", map[string]string{"a.changes": "- fix the crash (gh#o/r#2)\n- old one (pocket#9)\n"}, now.Add(time.Hour))
		}, map[string][]buildstore.PackageIssue{"a": {kept("gh", "o/r#2"), kept("pocket", "9")}},
			map[[2]string][]buildstore.IssuePlace{{"pocket", "1"}: nil, {"pocket", "9"}: {place("p", "a", buildstore.IssueKept)}}},
		{"a link: added, deleted, changed, kept", func(tx kv.Tx) error {
			return commitFiles(tx, "p", "b", map[string]string{"_link": `<link package="a"/>`,
				"a.changes": "- fix the crash (gh#o/r#2)\n- new (pocket#5)\n", "b.changes": "- see pocket#9 again\n- old one (pocket#9)\n"}, now)
		}, map[string][]buildstore.PackageIssue{"b": {kept("gh", "o/r#2"), pi("pocket", "5", buildstore.IssueAdded), pi("pocket", "9", buildstore.IssueChanged)}},
			map[[2]string][]buildstore.IssuePlace{{"pocket", "9"}: {place("p", "a", buildstore.IssueKept), place("p", "b", buildstore.IssueChanged)}}},
		{"a link that drops an issue", func(tx kv.Tx) error {
			return commitFiles(tx, "p", "b", map[string]string{"_link": `<link package="a"/>`, "a.changes": "- fix the crash (gh#o/r#2)\n"}, now)
		}, map[string][]buildstore.PackageIssue{"b": {kept("gh", "o/r#2"), pi("pocket", "9", buildstore.IssueDeleted)}}, nil},
		{"a patchinfo", func(tx kv.Tx) error {
			return commitFiles(tx, "p", "c", map[string]string{"_patchinfo": `<patchinfo><issue tracker="pocket" id="7">x</issue>` +
				`<issue tracker="nope" id="1"/><category>bugfix</category></patchinfo>`, "c.changes": "pocket#8\n"}, now)
		}, map[string][]buildstore.PackageIssue{"c": {kept("pocket", "7")}}, nil},
		{"package deleted", func(tx kv.Tx) error { return buildstore.DeletePackage(tx, "p", "a") },
			map[string][]buildstore.PackageIssue{"a": nil}, map[[2]string][]buildstore.IssuePlace{{"gh", "o/r#2"}: {place("p", "b", buildstore.IssueKept)}}},
		{"package purged", func(tx kv.Tx) error { return buildstore.PurgePackage(tx, "p", "b") },
			map[string][]buildstore.PackageIssue{"b": nil}, map[[2]string][]buildstore.IssuePlace{{"gh", "o/r#2"}: nil, {"pocket", "9"}: nil}},
		{"project deleted", func(tx kv.Tx) error { return buildstore.DeleteProject(tx, "p") },
			map[string][]buildstore.PackageIssue{"c": nil}, map[[2]string][]buildstore.IssuePlace{{"pocket", "7"}: nil}},
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
	must(t, db, func(tx kv.Tx) error {
		i, err := buildstore.GetIssue(tx, "pocket", "1")
		if err != nil || !i.Created.Equal(now) || i.State != "" {
			t.Errorf("pocket#1: %+v %v", i, err)
		}
		if _, err := buildstore.GetIssue(tx, "nope", "1"); err == nil {
			t.Error("an issue of an unknown tracker was kept")
		}
		return buildstore.DeleteTracker(tx, "pocket")
	})
	must(t, db, func(tx kv.Tx) error {
		if _, err := buildstore.GetIssue(tx, "pocket", "1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a deleted tracker's issue: %v", err)
		}
		if _, err := buildstore.GetIssue(tx, "gh", "o/r#2"); err != nil {
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
	must(t, db, func(tx kv.Tx) error {
		if err := commitFiles(tx, "p", "b", map[string]string{"b.changes": "pocket#3\n"}, now); err != nil {
			return err
		}
		return buildstore.DeletePackage(tx, "p", "b")
	})
	// Make it the file version 3 wrote (the issue index is schema 4's): no issue buckets.
	db = reopenOld(t, db, path, 3, func(tx kv.Tx) error {
		for _, b := range []string{store.BuildIssueIndex, store.BuildIssues} {
			if err := tx.DeleteBucket([]byte(b)); err != nil {
				return err
			}
		}
		return nil
	})
	defer db.Close()
	want := []buildstore.PackageIssue{pi("gh", "o/r#2", buildstore.IssueKept), pi("pocket", "1", buildstore.IssueKept), pi("pocket", "9", buildstore.IssueKept)}
	if got := issuesOf(t, db, "p", "a"); !reflect.DeepEqual(got, want) {
		t.Errorf("p/a: %v, want %v", got, want)
	}
	if got := placesOf(t, db, "pocket", "3"); got != nil {
		t.Errorf("a tombstone's issue: %v", got)
	}
	must(t, db, func(tx kv.Tx) error {
		if i, err := buildstore.GetIssue(tx, "pocket", "1"); err != nil || !i.Created.Equal(now) {
			t.Errorf("pocket#1: %+v %v", i, err)
		}
		return nil
	})
}
