package social

import (
	"fmt"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/internal/testkit/testdb"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestCommentModerators: who may delete anyone's comment on a request is the service's
// is_target_maintainer?: a maintainer of every existing target — the package when it exists,
// else its project — with at least one target existing.
func TestCommentModerators(t *testing.T) {
	db := testdb.Open(t)
	clk := clock.NewFixed(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	s := New(buildsvc.New(db, clk, nil, buildsvc.Options{}))
	if err := db.Write(func(tx kv.Tx) error {
		for _, login := range []string{"alice", "bob", "carol"} {
			if err := buildstore.PutPerson(tx, buildstore.Person{Login: login}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	maint := func(login string) []buildstore.Role {
		return []buildstore.Role{{ID: login, Role: buildstore.RoleMaintainer}}
	}
	target := func(p, k string) buildstore.RequestAction {
		return buildstore.RequestAction{Type: "submit", Target: &buildstore.ActionTarget{Project: p, Package: k}}
	}
	requests := [][]buildstore.RequestAction{
		{target("a", ""), target("b", "")},   // 1: two projects
		{target("b", "k")},                   // 2: an existing package
		{target("b", "new")},                 // 3: a package not there yet
		{target("gone", "")},                 // 4: nothing that exists
		{target("a", "x"), target("b", "k")}, // 5: alice's project, carol's package
	}
	if err := s.Store().Write(func(tx kv.Tx) error {
		for _, p := range []buildstore.Project{{Name: "a", Persons: maint("alice")}, {Name: "b", Persons: maint("bob")}} {
			if err := buildstore.PutProject(tx, p); err != nil {
				return err
			}
		}
		if err := buildstore.PutPackage(tx, buildstore.Package{Project: "b", Name: "k", Persons: maint("carol")}); err != nil {
			return err
		}
		for i, actions := range requests {
			if err := buildstore.PutRequest(tx, buildstore.Request{ID: uint64(i + 1), Creator: "alice", Actions: actions}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"alice": "-----", "bob": "-++--", "carol": "-+---",
		buildstore.AdminLogin: "+++++"}
	for login, w := range want {
		who := buildstore.Person{Login: login}
		if login == buildstore.AdminLogin {
			who.GlobalRoles = []string{buildstore.RoleAdmin}
		}
		got := ""
		s.Store().View(func(tx kv.Tx) error {
			for i := range requests {
				c, err := resolveCommented(tx, who, CommentObject{Kind: buildstore.CommentOnRequest, Request: fmt.Sprint(i + 1)})
				if err != nil {
					t.Fatal(err)
				}
				got += map[bool]string{true: "+", false: "-"}[moderates(tx, who, c)]
			}
			return nil
		})
		if got != w {
			t.Errorf("%s moderates %s, want %s", login, got, w)
		}
	}
}
