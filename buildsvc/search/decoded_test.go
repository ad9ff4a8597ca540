package search

import (
	"testing"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestSearchPackagesSeesChanges: the decoded packages a search keeps never hide a change — a new
// title shows in the next search, a deleted package leaves it — and a predicate on @project
// alone, evaluated once per project, still finds exactly that project's packages.
func TestSearchPackagesSeesChanges(t *testing.T) {
	s := searchWorld(t, 10)
	search := func() map[string]buildstore.Package {
		t.Helper()
		found, err := s.SearchPackages(searchAdmin, `@project='devel:tools'`, false, Page{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]buildstore.Package{}
		for _, k := range found.Records {
			if k.Project != "devel:tools" {
				t.Fatalf("found %s/%s", k.Project, k.Name)
			}
			got[k.Name] = k
		}
		if len(got) != found.Matches {
			t.Fatalf("%d records, %d matches", len(got), found.Matches)
		}
		return got
	}
	first := search()
	if len(first) < 2 {
		t.Fatalf("the world's devel:tools holds %d packages", len(first))
	}
	var changed, deleted string
	for name := range first {
		if changed == "" {
			changed = name
		} else if deleted == "" {
			deleted = name
		}
	}
	k := first[changed]
	k.Title = "A title changed after the first search"
	err := s.db.Exclusive(func(tx kv.Tx) error {
		if err := buildstore.PutPackage(tx, k); err != nil {
			return err
		}
		gone := first[deleted]
		gone.Deleted = true
		return buildstore.PutPackage(tx, gone)
	})
	if err != nil {
		t.Fatal(err)
	}
	again := search()
	if again[changed].Title != k.Title {
		t.Errorf("after the change %s's title is %q", changed, again[changed].Title)
	}
	if _, ok := again[deleted]; ok || len(again) != len(first)-1 {
		t.Errorf("after deleting %s: %d packages (was %d)", deleted, len(again), len(first))
	}
}
