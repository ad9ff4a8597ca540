package requests

import (
	"slices"
	"testing"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestAcceptEveryActionType: each action type, proposed by bob and accepted by alice (or Admin
// for the maintenance project), does what accepting it does in OBS.
func TestAcceptEveryActionType(t *testing.T) {
	target := func(p, k string) *buildstore.ActionTarget { return &buildstore.ActionTarget{Project: p, Package: k} }
	cases := []struct {
		name  string
		setup func(w *requestWorld)
		act   buildstore.RequestAction
		check func(tx kv.Tx) string // "" when the accept did its work
	}{
		{"delete a package", nil, buildstore.RequestAction{Type: "delete", Target: target("dev", "p")},
			func(tx kv.Tx) string {
				if _, err := buildstore.GetPackage(tx, "dev", "p"); err == nil {
					return "dev/p still there"
				}
				return ""
			}},
		{"add a role", nil, buildstore.RequestAction{Type: "add_role", Target: target("dev", "p"), Person: &buildstore.ActionRole{Name: "bob", Role: "maintainer"}},
			func(tx kv.Tx) string {
				k, _ := buildstore.GetPackage(tx, "dev", "p")
				if !slices.Contains(k.Persons, buildstore.Role{ID: "bob", Role: "maintainer"}) {
					return "bob is not a maintainer of dev/p"
				}
				return ""
			}},
		{"set the bugowner", nil, buildstore.RequestAction{Type: "set_bugowner", Target: target("dev", ""), Person: &buildstore.ActionRole{Name: "carol"}},
			func(tx kv.Tx) string {
				p, _ := buildstore.GetProject(tx, "dev")
				if !slices.Contains(p.Persons, buildstore.Role{ID: "carol", Role: "bugowner"}) {
					return "carol is not dev's bugowner"
				}
				return ""
			}},
		{"change the devel package", nil, buildstore.RequestAction{Type: "change_devel", Source: &buildstore.ActionSource{Project: "home:bob:branches:dev", Package: "p"}, Target: target("dev", "p")},
			func(tx kv.Tx) string {
				k, _ := buildstore.GetPackage(tx, "dev", "p")
				if k.Devel == nil || k.Devel.Project != "home:bob:branches:dev" || k.Devel.Package != "p" {
					return "dev/p has no devel home:bob:branches:dev/p"
				}
				return ""
			}},
		{"open a maintenance incident", func(w *requestWorld) {
			w.svc.db.Write(func(tx kv.Tx) error {
				return buildstore.PutProject(tx, buildstore.Project{Name: "maint", Kind: "maintenance", Persons: []buildstore.Role{{ID: "alice", Role: "maintainer"}}})
			})
		}, buildstore.RequestAction{Type: "maintenance_incident", Source: &buildstore.ActionSource{Project: "home:bob:branches:dev"}, Target: target("maint", "")},
			func(tx kv.Tx) string {
				if _, err := buildstore.GetPackage(tx, "maint:0", "p"); err != nil {
					return "no maint:0/p"
				}
				return ""
			}},
		{"release", func(w *requestWorld) {
			w.svc.db.Write(func(tx kv.Tx) error {
				return buildstore.PutProject(tx, buildstore.Project{Name: "upd", Persons: []buildstore.Role{{ID: "alice", Role: "maintainer"}}})
			})
		}, buildstore.RequestAction{Type: "maintenance_release", Source: &buildstore.ActionSource{Project: "home:bob:branches:dev", Package: "p"}, Target: target("upd", "")},
			func(tx kv.Tx) string {
				if r, _, _ := buildstore.LatestRevision(tx, "upd", "p"); r.Version != "2" {
					return "upd/p is not bob's version 2"
				}
				return ""
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newRequestWorld(t)
			if c.setup != nil {
				c.setup(w)
			}
			r, err := w.svc.CreateRequest(w.who["bob"], buildstore.Request{Actions: []buildstore.RequestAction{c.act}}, false)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.svc.ChangeState(w.who["alice"], r.ID, StateChange{NewState: "accepted", Force: true}); err != nil {
				t.Fatal(err)
			}
			w.svc.db.View(func(tx kv.Tx) error {
				if msg := c.check(tx); msg != "" {
					t.Error(msg)
				}
				return nil
			})
		})
	}
}

// TestRefusedAcceptChangesNothing: a refused action leaves everything as it was — the request stays
// open and nothing of its other actions is applied.
func TestRefusedAcceptChangesNothing(t *testing.T) {
	w := newRequestWorld(t)
	r, err := w.svc.CreateRequest(w.who["bob"], buildstore.Request{Actions: []buildstore.RequestAction{
		{Type: "add_role", Target: &buildstore.ActionTarget{Project: "dev", Package: "p"}, Person: &buildstore.ActionRole{Name: "bob", Role: "maintainer"}},
		{Type: "delete", Target: &buildstore.ActionTarget{Project: "home:bob:branches:dev"}},
	}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.svc.ChangeState(w.who["alice"], r.ID, StateChange{NewState: "accepted"}); errCode(err) != "post_request_no_permission" {
		t.Fatalf("alice accepts a delete of bob's project: %v", err)
	}
	w.svc.db.View(func(tx kv.Tx) error {
		k, _ := buildstore.GetPackage(tx, "dev", "p")
		if slices.Contains(k.Persons, buildstore.Role{ID: "bob", Role: "maintainer"}) {
			t.Error("the first action was applied")
		}
		return nil
	})
	if got, _ := w.svc.Request(w.who["bob"], r.ID); got.State.Name != "new" {
		t.Errorf("state %s", got.State.Name)
	}
}
