package search

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The fixed world of the search table (search_table_*_test.go): six live projects (secret
// hidden from non-members) and a deleted one, ten live packages and two tombstones, eight
// requests. Short names in the tables: dt devel:tools, ha home:alice, hab
// home:alice:branches:devel:tools, oF openSUSE:Factory, oM openSUSE:Maintenance, sec secret.

func role(id, r string) buildstore.Role { return buildstore.Role{ID: id, Role: r} }

func tableWorld(t testing.TB) *Service {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	factoryRepo := []buildstore.Repository{{Name: "openSUSE_Factory", Paths: []buildstore.Path{{Project: "openSUSE:Factory", Repository: "snapshot"}}}}
	projects := []buildstore.Project{
		{Name: "devel:tools", Title: "Development tools", Description: "Tools for developers",
			Persons: []buildstore.Role{role("alice", "maintainer"), role("bob", "bugowner")},
			Groups:  []buildstore.Role{role("team-a", "reviewer")}, Repositories: factoryRepo},
		{Name: "home:alice", Title: "Alice's home", Persons: []buildstore.Role{role("alice", "maintainer")}, Repositories: factoryRepo},
		{Name: "home:alice:branches:devel:tools", Title: "Branch of devel:tools", Persons: []buildstore.Role{role("alice", "maintainer")},
			Repositories: []buildstore.Repository{{Name: "standard", Paths: []buildstore.Path{{Project: "devel:tools", Repository: "openSUSE_Factory"}}}}},
		{Name: "openSUSE:Factory", Title: "The next openSUSE distribution", Persons: []buildstore.Role{role("carol", "maintainer")},
			Groups: []buildstore.Role{role("factory-team", "maintainer")}, Repositories: []buildstore.Repository{{Name: "snapshot"}}},
		{Name: "openSUSE:Maintenance", Kind: "maintenance", Title: "Maintenance", Persons: []buildstore.Role{role("carol", "maintainer")}},
		{Name: "secret", Title: "Secret", Persons: []buildstore.Role{role("dave", "maintainer")},
			Flags: []buildstore.Flag{{Name: "access", Status: "disable"}}},
		{Name: "gone", Title: "Gone", Persons: []buildstore.Role{role("carol", "maintainer")}, Deleted: true},
	}
	devel := func(p, k string) *buildstore.Devel { return &buildstore.Devel{Project: p, Package: k} }
	packages := []buildstore.Package{
		{Project: "devel:tools", Name: "Zlib", Title: "Compression library", Description: "zlib",
			Persons: []buildstore.Role{role("carol", "bugowner")}, Groups: []buildstore.Role{role("team-a", "maintainer")}},
		{Project: "devel:tools", Name: "bash", Title: "The GNU Bourne Again shell", Persons: []buildstore.Role{role("bob", "maintainer")}},
		{Project: "devel:tools", Name: "hello", Title: "Hello World", Description: "greets the world",
			Persons: []buildstore.Role{role("bob", "maintainer"), role("alice", "bugowner")}},
		{Project: "home:alice", Name: "hello", Title: "hello", Devel: devel("devel:tools", "hello")},
		{Project: "home:alice", Name: "hello_world", Title: "Hello_World", Description: "100% greeting"},
		{Project: "home:alice:branches:devel:tools", Name: "hello", Title: "Hello World", Devel: devel("devel:tools", "hello"),
			Persons: []buildstore.Role{role("alice", "maintainer")}},
		{Project: "openSUSE:Factory", Name: "bash", Title: "bash", Devel: devel("devel:tools", "bash"),
			Groups: []buildstore.Role{role("factory-team", "maintainer")}},
		{Project: "openSUSE:Factory", Name: "hello", Title: "Hello World", Devel: devel("devel:tools", "hello"),
			Persons: []buildstore.Role{role("carol", "maintainer")}},
		{Project: "openSUSE:Factory", Name: "zlib", Title: "zlib", Devel: devel("devel:tools", "Zlib")},
		{Project: "openSUSE:Factory", Name: "deadpkg", Title: "dead", Persons: []buildstore.Role{role("carol", "maintainer")}, Deleted: true},
		{Project: "secret", Name: "hidden-pkg", Title: "hidden", Persons: []buildstore.Role{role("dave", "maintainer")}},
		{Project: "gone", Name: "ghost", Title: "ghost", Deleted: true, DeletedWithProject: true},
	}
	hist := func(who ...string) []buildstore.HistoryRecord {
		var out []buildstore.HistoryRecord
		for _, w := range who {
			out = append(out, buildstore.HistoryRecord{Who: w, When: now, Description: "changed"})
		}
		return out
	}
	submit := func(sp, sk, tp, tk string) buildstore.RequestAction {
		return buildstore.RequestAction{Type: "submit", Source: &buildstore.ActionSource{Project: sp, Package: sk},
			Target: &buildstore.ActionTarget{Project: tp, Package: tk}}
	}
	state := func(name, who string) buildstore.RequestState {
		return buildstore.RequestState{Name: name, Who: who, When: now, Created: now}
	}
	requests := []buildstore.Request{
		{ID: 1, Creator: "alice", Description: "update hello to 2.12", Actions: []buildstore.RequestAction{submit("home:alice", "hello", "devel:tools", "hello")},
			State: state("new", "alice"), Reviews: []buildstore.Review{{State: "new", ByUser: "bob"}}, History: hist("alice")},
		{ID: 2, Creator: "bob", Description: "Forward Hello to Factory", Actions: []buildstore.RequestAction{submit("devel:tools", "hello", "openSUSE:Factory", "hello")},
			State: state("review", "bob"), Reviews: []buildstore.Review{{State: "new", ByGroup: "factory-team"}, {State: "accepted", ByUser: "carol", Who: "carol"}},
			History: hist("bob")},
		{ID: 3, Creator: "carol", Description: "drop zlib", Actions: []buildstore.RequestAction{{Type: "delete", Target: &buildstore.ActionTarget{Project: "openSUSE:Factory", Package: "zlib"}}},
			State: state("declined", "dave"), History: hist("carol", "dave")},
		{ID: 4, Creator: "alice", Actions: []buildstore.RequestAction{submit("home:alice:branches:devel:tools", "hello", "devel:tools", "hello")},
			State: state("accepted", "bob"), Reviews: []buildstore.Review{{State: "accepted", ByUser: "bob", Who: "bob"}}, History: hist("alice", "bob")},
		{ID: 5, Creator: "bob", Actions: []buildstore.RequestAction{submit("devel:tools", "bash", "openSUSE:Factory", "bash"), submit("devel:tools", "Zlib", "openSUSE:Factory", "zlib")},
			State: state("new", "bob"), Reviews: []buildstore.Review{{State: "new", ByProject: "openSUSE:Factory"}}, History: hist("bob")},
		{ID: 6, Creator: "dave", Actions: []buildstore.RequestAction{submit("secret", "hidden-pkg", "devel:tools", "hidden-pkg")},
			State: state("review", "dave"), Reviews: []buildstore.Review{{State: "new", ByUser: "alice"}}, History: hist("dave")},
		{ID: 7, Creator: "carol", Actions: []buildstore.RequestAction{{Type: "add_role", Target: &buildstore.ActionTarget{Project: "openSUSE:Factory", Package: "hello"},
			Person: &buildstore.ActionRole{Name: "erin", Role: "maintainer"}}},
			State: state("revoked", "carol"), History: hist("carol")},
		{ID: 8, Creator: "alice", Actions: []buildstore.RequestAction{submit("home:alice", "hello_world", "devel:tools", "hello_world")},
			State: state("superseded", "alice"), Reviews: []buildstore.Review{{State: "declined", ByUser: "carol", Who: "carol"}}, History: hist("alice", "carol")},
	}
	err = db.Write(func(tx kv.Tx) error {
		for _, p := range projects {
			if err := buildstore.PutProject(tx, p); err != nil {
				return err
			}
		}
		for _, k := range packages {
			if err := buildstore.PutPackage(tx, k); err != nil {
				return err
			}
		}
		for _, r := range requests {
			if err := buildstore.PutRequest(tx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return New(buildsvc.New(db, clock.NewFixed(now), nil, buildsvc.Options{}), db)
}
