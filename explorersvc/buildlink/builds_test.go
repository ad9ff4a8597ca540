package buildlink

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestExplorerBuilds: the explorer reads a package's results through the build service's
// domain — one per repository and arch with a status, in meta order —, and a project with
// <access><disable/> is not found to it, as to any non-member; a maintainer's identity
// would see it.
func TestExplorerBuilds(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	repos := []buildstore.Repository{{Name: "standard", Archs: []string{"x86_64", "aarch64"}}, {Name: "next", Archs: []string{"x86_64"}}}
	err = db.Write(func(tx kv.Tx) error {
		for _, p := range []buildstore.Project{
			{Name: "home:alice:open", Persons: []buildstore.Role{{ID: "alice", Role: "maintainer"}}, Repositories: repos},
			{Name: "home:alice:hidden", Persons: []buildstore.Role{{ID: "alice", Role: "maintainer"}}, Repositories: repos,
				Flags: []buildstore.Flag{{Name: "access", Status: "disable"}}},
		} {
			if err := buildstore.PutProject(tx, p); err != nil {
				return err
			}
			for _, pkg := range []string{"foo", "bar"} {
				if err := buildstore.PutPackage(tx, buildstore.Package{Project: p.Name, Name: pkg}); err != nil {
					return err
				}
			}
			for _, st := range []struct{ repo, arch, pkg, code string }{
				{"standard", "x86_64", "foo", "succeeded"}, {"standard", "aarch64", "foo", "failed"},
				{"standard", "x86_64", "bar", "succeeded"}, {"next", "x86_64", "foo", "scheduled"},
			} {
				w := buildstore.Where{Project: p.Name, Repository: st.repo, Arch: st.arch}
				if err := buildstore.PutStatus(tx, w, buildstore.BuildStatus{Package: st.pkg, Code: st.code}); err != nil {
					return err
				}
			}
		}
		return buildstore.PutPerson(tx, buildstore.Person{Login: "alice"})
	})
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFixed(time.Now())
	b := Builds{Farm: farm.New(buildsvc.New(db, clk, nil, buildsvc.Options{}), db, clk, nil, farm.Options{})}
	got, err := b.PackageResults("home:alice:open", "foo")
	want := []explorersvc.BuildResult{
		{Project: "home:alice:open", Package: "foo", Repository: "standard", Arch: "x86_64", Status: "succeeded"},
		{Project: "home:alice:open", Package: "foo", Repository: "standard", Arch: "aarch64", Status: "failed"},
		{Project: "home:alice:open", Package: "foo", Repository: "next", Arch: "x86_64", Status: "scheduled"},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("foo: %+v, %v\nwant %+v", got, err, want)
	}
	if got, err := b.PackageResults("home:alice:open", "nothing"); err != nil || len(got) != 0 {
		t.Errorf("a package without builds: %+v, %v", got, err)
	}
	for _, project := range []string{"home:alice:hidden", "home:nobody"} {
		if got, err := b.PackageResults(project, "foo"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s: %+v, %v; want not found", project, got, err)
		}
	}
	b.Who = buildstore.Person{Login: "alice"}
	if got, err := b.PackageResults("home:alice:hidden", "foo"); err != nil || len(got) != 3 {
		t.Errorf("alice's own hidden project: %+v, %v", got, err)
	}
}
