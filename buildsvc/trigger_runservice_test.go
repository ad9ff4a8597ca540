package buildsvc

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestMayRunService: an active maintainer of the package or its project, neither locked; one
// refusal for everything else.
func TestMayRunService(t *testing.T) {
	s := peopleService(t)
	alice := buildstore.Person{Login: "alice", State: buildstore.StateConfirmed}
	maint := []buildstore.Role{{ID: "alice", Role: buildstore.RoleMaintainer}}
	cases := []struct {
		name  string
		owner buildstore.Person
		prj   buildstore.Project
		k     buildstore.Package
		ok    bool
	}{
		{"project maintainer", alice, buildstore.Project{Name: "p", Persons: maint}, buildstore.Package{Name: "k"}, true},
		{"package maintainer", alice, buildstore.Project{Name: "p"}, buildstore.Package{Name: "k", Persons: maint}, true},
		{"not a maintainer", alice, buildstore.Project{Name: "p"}, buildstore.Package{Name: "k"}, false},
		{"locked owner", buildstore.Person{Login: "alice", State: buildstore.StateLocked}, buildstore.Project{Name: "p", Persons: maint}, buildstore.Package{Name: "k"}, false},
		{"locked project", alice, buildstore.Project{Name: "p", Persons: maint, Locked: true}, buildstore.Package{Name: "k"}, false},
		{"locked package", alice, buildstore.Project{Name: "p", Persons: maint}, buildstore.Package{Name: "k", Locked: true}, false},
	}
	for _, c := range cases {
		_ = s.db.View(func(tx kv.Tx) error {
			err := MayRunService(tx, c.owner, c.prj, c.k)
			if c.ok != (err == nil) || (err != nil && (fault.Code(err) != "no_permission" || err.Error() != "no permission for package k in project p")) {
				t.Errorf("%s: %v", c.name, err)
			}
			return nil
		})
	}
}

// TestTokenTarget: a bound token works on its own package only; an unbound one needs both names.
func TestTokenTarget(t *testing.T) {
	bound := buildstore.Token{Project: "p", Package: "k"}
	for _, c := range []struct {
		t              buildstore.Token
		project, pkg   string
		wantP, wantK   string
		code, contains string
	}{
		{bound, "", "", "p", "k", "", ""},
		{bound, "p", "k", "p", "k", "", ""},
		{bound, "q", "", "", "", "bad_request", "another project"},
		{bound, "", "x", "", "", "bad_request", "another package"},
		{buildstore.Token{}, "", "", "", "", "missing_parameter", "project"},
		{buildstore.Token{}, "p", "", "", "", "missing_parameter", "package"},
		{buildstore.Token{}, "p", "k", "p", "k", "", ""},
	} {
		p, k, err := tokenTarget(c.t, c.project, c.pkg)
		if p != c.wantP || k != c.wantK || fault.Code(err) != c.code || (err != nil && !strings.Contains(err.Error(), c.contains)) {
			t.Errorf("tokenTarget(%+v, %q, %q) = %q %q %v", c.t, c.project, c.pkg, p, k, err)
		}
	}
}
