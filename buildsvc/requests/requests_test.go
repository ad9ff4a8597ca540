package requests

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/internal/testkit/testdb"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// requestWorld: project dev (alice maintains it) with package p, bob's branch of it with a
// change, carol a reviewer, dave nobody in particular, and Admin.
type requestWorld struct {
	t   *testing.T
	svc *Service
	clk *clock.Fixed
	who map[string]buildstore.Person
}

func newRequestWorld(t *testing.T) *requestWorld {
	t.Helper()
	db := testdb.Open(t)
	clk := clock.NewFixed(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	w := &requestWorld{t: t, svc: New(buildsvc.New(db, clk, nil, buildsvc.Options{}), db, clk, nil), clk: clk, who: map[string]buildstore.Person{}}
	if err := db.Write(func(tx kv.Tx) error {
		for _, login := range []string{"Admin", "alice", "bob", "carol", "dave"} {
			p := buildstore.Person{Login: login, Email: login + "@example.test", State: buildstore.StateConfirmed}
			if login == "Admin" {
				p.GlobalRoles = []string{buildstore.RoleAdmin}
			}
			w.who[login] = p
			if err := buildstore.PutPerson(tx, p); err != nil {
				return err
			}
		}
		if err := buildstore.PutProject(tx, buildstore.Project{Name: "dev", Persons: []buildstore.Role{{ID: "alice", Role: "maintainer"}}}); err != nil {
			return err
		}
		return buildstore.PutPackage(tx, buildstore.Package{Project: "dev", Name: "p"})
	}); err != nil {
		t.Fatal(err)
	}
	w.must(w.svc.Commit(w.who["alice"], "dev", "p", buildsvc.PutFile("p.spec", []byte("Name: p\nVersion: 1\n")), buildsvc.CommitOptions{}))
	w.must(w.svc.Branch(w.who["bob"], buildsvc.BranchRequest{Project: "dev", Package: "p"}))
	w.must(w.svc.Commit(w.who["bob"], "home:bob:branches:dev", "p", buildsvc.PutFile("p.spec", []byte("Name: p\nVersion: 2\n")), buildsvc.CommitOptions{}))
	return w
}

func (w *requestWorld) must(_ any, err error) {
	w.t.Helper()
	if err != nil {
		w.t.Fatal(err)
	}
}

// submit creates bob's submit of his branch, with reviews by the given persons.
func (w *requestWorld) submit(reviewers ...string) uint64 {
	w.t.Helper()
	r := buildstore.Request{Description: "version 2", Actions: []buildstore.RequestAction{{Type: "submit",
		Source: &buildstore.ActionSource{Project: "home:bob:branches:dev", Package: "p"}, Target: &buildstore.ActionTarget{Project: "dev"}}}}
	for _, login := range reviewers {
		r.Reviews = append(r.Reviews, buildstore.Review{ByUser: login})
	}
	out, err := w.svc.CreateRequest(w.who["bob"], r, false)
	if err != nil {
		w.t.Fatal(err)
	}
	return out.ID
}

// inState makes a request in state name.
func (w *requestWorld) inState(name string) uint64 {
	w.t.Helper()
	if name == "review" {
		return w.submit("carol")
	}
	id := w.submit()
	change := map[string]StateChange{
		"declined":   {NewState: "declined"},
		"revoked":    {NewState: "revoked"},
		"superseded": {NewState: "superseded", SupersededBy: w.submit()},
		"accepted":   {NewState: "accepted"},
	}
	if c, ok := change[name]; ok {
		if err := w.svc.ChangeState(w.who["Admin"], id, c); err != nil {
			w.t.Fatal(err)
		}
	}
	return id
}

// errCode is the wire code of err ("ok" for nil).
func errCode(err error) string {
	var f *fault.Error
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &f):
		return f.Code
	}
	return err.Error()
}

// TestRequestTransitions runs every command on a request in every state as every role: the
// creator (bob), the target maintainer (alice), the reviewer (carol, who has a review only in
// the review state), a stranger (dave) and Admin. A role outside allowed gets OBS's 403
// post_request_no_permission.
func TestRequestTransitions(t *testing.T) {
	roles := map[string]string{"creator": "bob", "maintainer": "alice", "reviewer": "carol", "stranger": "dave", "admin": "Admin"}
	cmds := map[string]StateChange{
		"accept": {NewState: "accepted"}, "force-accept": {NewState: "accepted", Force: true}, "decline": {NewState: "declined"},
		"revoke": {NewState: "revoked"}, "supersede": {NewState: "superseded"}, "reopen": {NewState: "new"}, "delete": {NewState: "deleted"},
	}
	all := func(s string) []string { return strings.Fields(s) }
	table := []struct {
		from, cmd string
		allowed   []string
	}{
		{"new", "accept", all("maintainer admin")},
		{"new", "force-accept", all("maintainer admin")},
		{"new", "decline", all("maintainer admin")},
		{"new", "revoke", all("creator admin")},
		{"new", "supersede", all("creator maintainer admin")},
		{"new", "reopen", nil},
		{"new", "delete", all("admin")},
		{"review", "accept", nil},
		{"review", "force-accept", all("maintainer admin")},
		{"review", "decline", all("maintainer reviewer admin")},
		{"review", "revoke", all("creator admin")},
		{"review", "supersede", all("creator maintainer admin")},
		{"review", "reopen", nil},
		{"review", "delete", all("admin")},
		{"declined", "accept", nil},
		{"declined", "force-accept", nil},
		{"declined", "decline", nil},
		{"declined", "revoke", all("creator admin")},
		{"declined", "supersede", all("creator maintainer admin")},
		{"declined", "reopen", all("creator maintainer admin")},
		{"declined", "delete", all("admin")},
		{"revoked", "accept", nil},
		{"revoked", "decline", nil},
		{"revoked", "revoke", nil},
		{"revoked", "supersede", nil},
		{"revoked", "reopen", all("creator admin")},
		{"revoked", "delete", all("admin")},
		{"superseded", "accept", nil},
		{"superseded", "decline", nil},
		{"superseded", "revoke", nil},
		{"superseded", "supersede", nil},
		{"superseded", "reopen", all("creator maintainer admin")},
		{"accepted", "accept", nil},
		{"accepted", "decline", nil},
		{"accepted", "revoke", nil},
		{"accepted", "reopen", nil},
		{"accepted", "delete", nil},
	}
	for _, row := range table {
		for role, login := range roles {
			t.Run(row.from+"/"+row.cmd+"/"+role, func(t *testing.T) {
				w := newRequestWorld(t)
				id := w.inState(row.from)
				c := cmds[row.cmd]
				if c.NewState == "superseded" {
					c.SupersededBy = w.submit()
				}
				err := w.svc.ChangeState(w.who[login], id, c)
				want := "post_request_no_permission"
				if slices.Contains(row.allowed, role) {
					want = "ok"
				}
				if got := errCode(err); got != want {
					t.Fatalf("%s %s as %s: %v (code %s), want %s", row.from, row.cmd, role, err, got, want)
				}
				r, _ := w.svc.Request(w.who["Admin"], id)
				if want == "ok" && r.State.Name != map[string]string{"new": "new"}[c.NewState] && r.State.Name != c.NewState {
					t.Errorf("state %s after %s", r.State.Name, row.cmd)
				}
			})
		}
	}
}
