package search

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestSearchPublishedIndexed: a search naming the binary reads the published name index; its
// answers equal a walk of every published tree, for names in several projects, repositories
// and directories, after trees were replaced, deleted and a project purged; and the index kept
// by the writers equals one rebuilt from the published trees (the schema 5 migration).
func TestSearchPublishedIndexed(t *testing.T) {
	s := binarySearchWorld(t)
	x86 := []string{"x86_64", "aarch64"}
	err := s.db.Write(func(tx kv.Tx) error {
		for _, name := range []string{"more", "more:sub", "gone"} {
			p := buildstore.Project{Name: name, Repositories: []buildstore.Repository{{Name: "standard", Archs: x86}, {Name: "other", Archs: x86}}}
			if err := buildstore.PutProject(tx, p); err != nil {
				return err
			}
		}
		put := func(project, repo, path string) error {
			return buildstore.PutPublished(tx, project, repo, path, []byte("rpm"))
		}
		for i, p := range []string{"more", "more:sub", "gone"} {
			for _, repo := range []string{"standard", "other"} {
				for _, path := range []string{
					"x86_64/hello-1.0-1.1.x86_64.rpm", "aarch64/hello-1.0-1.1.aarch64.rpm", "src/hello-1.0-1.1.src.rpm",
					fmt.Sprintf("x86_64/hello-1.%d-2.1.x86_64.rpm", i), "noarch/hello-doc-1.0-1.1.noarch.rpm",
					"repodata/hello-1.0-1.1.x86_64.rpm", "x86_64/deeper/hello-1.0-1.1.x86_64.rpm", "hello-1.0-1.1.x86_64.rpm",
					"x86_64/hello.rpm", "x86_64/hello-1.0-1.1.x86_64.rpm.sig",
				} {
					if err := put(p, repo, path); err != nil {
						return err
					}
				}
			}
			w := buildstore.Where{Project: p, Repository: "standard", Arch: "aarch64"}
			b := buildstore.Binary{Package: "hello-src", Filename: "hello-1.0-1.1.x86_64.rpm", Name: "hello", Version: "1.0", Release: "1.1", Arch: "x86_64"}
			if err := buildstore.PutBinary(tx, w, b, nil); err != nil {
				return err
			}
			b.Package, b.Filename, b.Arch = "hello-src", "hello-1.0-1.1.src.rpm", "src"
			if err := buildstore.PutBinary(tx, w, b, nil); err != nil {
				return err
			}
		}
		if err := buildstore.DeletePublished(tx, "more", "other"); err != nil {
			return err
		}
		if err := put("more", "other", "x86_64/hello-3.0-1.1.x86_64.rpm"); err != nil {
			return err
		}
		return buildstore.PurgeFarm(tx, "gone")
	})
	if err != nil {
		t.Fatal(err)
	}
	scanned := New(s.Service, s.db)
	scanned.scanPublished = true
	for _, match := range []string{
		"@name='hello'", "@name='hello-doc'", "@name='hello' or @name='hello-doc'", "@name='hello' and @project='more:sub'",
		"@name='hello' and @arch='x86_64'", "@name='hello' and @package='hello-src'", "@name='secret'", "@name='nothing'",
		"@name='hello' and @repository='other'", "(@name='hello' or @name='doc') and @version='1.0'",
	} {
		for _, who := range []buildstore.Person{searchBob, searchAlice} {
			got, err := s.SearchPublishedBinaries(who, match, Page{})
			if err != nil {
				t.Fatalf("%s: %v", match, err)
			}
			want, err := scanned.SearchPublishedBinaries(who, match, Page{})
			if err != nil {
				t.Fatalf("%s scanned: %v", match, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s as %s: indexed %+v\nscanned %+v", match, who.Login, got, want)
			}
			if match == "@name='hello'" && got.Matches != 15 {
				t.Errorf("%s: %d matches, want 15 (pub's 2, more's 4 and 1 republished, more:sub's 2×4; gone's purged)", match, got.Matches)
			}
		}
	}
	kept := indexKeys(t, s.db)
	if err := s.db.Write(func(tx kv.Tx) error { return store.RebuildIndex(tx, store.BuildFarmPublishedNames) }); err != nil {
		t.Fatal(err)
	}
	if rebuilt := indexKeys(t, s.db); !reflect.DeepEqual(kept, rebuilt) {
		t.Errorf("the index kept by the writers:\n%q\nrebuilt:\n%q", kept, rebuilt)
	}
}

// indexKeys lists the published name index.
func indexKeys(t *testing.T, db *store.DB) []string {
	t.Helper()
	var out []string
	db.View(func(tx kv.Tx) error {
		return tx.Bucket([]byte(store.BuildFarmPublishedNames)).ForEach(func(k, _ []byte) error {
			out = append(out, string(bytes.ReplaceAll(k, []byte{0}, []byte("|"))))
			return nil
		})
	})
	return out
}
