package buildsvc

import (
	"reflect"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/testdb"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestRepoChain: the expanded path is depth first, each repository once, own repository first;
// a path to nowhere is reported apart.
func TestRepoChain(t *testing.T) {
	db := testdb.Open(t)
	repo := func(name string, paths ...string) buildstore.Repository {
		r := buildstore.Repository{Name: name, Archs: []string{"x86_64"}}
		for i := 0; i+1 < len(paths); i += 2 {
			r.Paths = append(r.Paths, buildstore.Path{Project: paths[i], Repository: paths[i+1]})
		}
		return r
	}
	err := db.Write(func(tx kv.Tx) error {
		for _, p := range []buildstore.Project{
			{Name: "base", Repositories: []buildstore.Repository{repo("standard")}},
			{Name: "libs", Repositories: []buildstore.Repository{repo("standard", "base", "standard")}},
			{Name: "tools", Repositories: []buildstore.Repository{repo("standard", "libs", "standard", "base", "standard", "gone", "x")}},
			{Name: "home", Repositories: []buildstore.Repository{repo("r", "tools", "standard", "home", "r")}},
		} {
			if err := buildstore.PutProject(tx, p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	path := func(p, r string) buildstore.Path { return buildstore.Path{Project: p, Repository: r} }
	db.View(func(tx kv.Tx) error {
		chain, missing := RepoChain(tx, "home", "r")
		want := []buildstore.Path{path("home", "r"), path("tools", "standard"), path("libs", "standard"), path("base", "standard")}
		if !reflect.DeepEqual(chain, want) {
			t.Errorf("chain %v, want %v", chain, want)
		}
		if !reflect.DeepEqual(missing, []buildstore.Path{path("gone", "x")}) {
			t.Errorf("missing %v", missing)
		}
		return nil
	})
}
