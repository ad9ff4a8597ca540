package search

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// ownerWorld is a store where the owner rules show: Root (the attribute's root, linking to
// Base) with packages developed in Dev, in a project whose devel project is Dev, in a project
// hidden from outsiders, and in a loop; a locked person and a group without a confirmed member
// hold roles that do not count.
func ownerWorld(t *testing.T, rootValues ...string) *Service {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	role := func(id, r string) buildstore.Role { return buildstore.Role{ID: id, Role: r} }
	roles := func(list ...buildstore.Role) []buildstore.Role { return list }
	err = db.Write(func(tx kv.Tx) error {
		for _, p := range []buildstore.Person{{Login: "ann", State: buildstore.StateConfirmed}, {Login: "lok", State: buildstore.StateLocked}} {
			if err := buildstore.PutPerson(tx, p); err != nil {
				return err
			}
		}
		for _, g := range []buildstore.Group{{Title: "active", Members: []string{"ann"}}, {Title: "idle", Members: []string{"lok"}}} {
			if err := buildstore.PutGroup(tx, g); err != nil {
				return err
			}
		}
		hidden := []buildstore.Flag{{Name: "access", Status: "disable"}}
		for _, p := range []buildstore.Project{
			{Name: "Root", Links: []buildstore.Link{{Project: "Base"}}, Persons: roles(role("ann", "maintainer"))},
			{Name: "Base", Persons: roles(role("lok", "maintainer"))},
			{Name: "Dev"},
			{Name: "Dev2", Devel: "Dev"},
			{Name: "Hidden", Flags: hidden, Persons: roles(role("ann", "bugowner"))},
		} {
			if err := buildstore.PutProject(tx, p); err != nil {
				return err
			}
		}
		for _, k := range []buildstore.Package{
			{Project: "Root", Name: "a", Devel: &buildstore.Devel{Project: "Dev"}},
			{Project: "Dev", Name: "a", Persons: roles(role("lok", "maintainer"), role("ann", "bugowner")),
				Groups: roles(role("idle", "maintainer"), role("active", "maintainer"), role("active", "bugowner"))},
			{Project: "Root", Name: "b", Devel: &buildstore.Devel{Project: "Hidden"}},
			{Project: "Hidden", Name: "b"},
			{Project: "Root", Name: "c", Devel: &buildstore.Devel{Project: "Dev", Package: "c"}},
			{Project: "Dev", Name: "c", Devel: &buildstore.Devel{Project: "Root", Package: "c"}},
			{Project: "Root", Name: "d", Devel: &buildstore.Devel{Project: "Dev2"}},
			{Project: "Dev2", Name: "d"},
			{Project: "Dev", Name: "d", Persons: roles(role("ann", "maintainer"))},
			{Project: "Root", Name: "e"},
			{Project: "Base", Name: "e", Persons: roles(role("ann", "bugowner"))},
		} {
			if err := buildstore.PutPackage(tx, k); err != nil {
				return err
			}
		}
		if err := buildstore.PutAttributeNamespace(tx, buildstore.AttributeNamespace{Name: "OBS"}); err != nil {
			return err
		}
		if err := buildstore.PutAttributeDefinition(tx, buildstore.AttributeDefinition{Namespace: "OBS", Name: "OwnerRootProject"}); err != nil {
			return err
		}
		return buildstore.PutAttribute(tx, buildstore.Attribute{Project: "Root", Namespace: "OBS", Name: "OwnerRootProject", Values: rootValues})
	})
	if err != nil {
		t.Fatal(err)
	}
	return New(buildsvc.New(db, clock.NewFixed(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)), nil, buildsvc.Options{}), db)
}

// ownersText is owners as "root project/package: role=name … | …", groups as "@title".
func ownersText(owners []Owner) string {
	var parts []string
	for _, o := range owners {
		s := o.RootProject + " " + o.Project + "/" + o.Package + ":"
		for _, h := range o.Holders {
			name := h.Name
			if h.Group {
				name = "@" + name
			}
			s += fmt.Sprintf(" %s=%s", h.Role, name)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " | ")
}

// TestOwnerRules: devel chains (a package's, a project's, one that loops, one into a hidden
// project), OBS's holder order, who counts as a holder, the link fallback, and the root's
// attribute values.
func TestOwnerRules(t *testing.T) {
	outsider := buildstore.Person{Login: "visitor"}
	s := ownerWorld(t)
	bugowner := "bugowner"
	for _, c := range []struct {
		name string
		q    OwnerQuery
		want string
	}{
		{"devel package; roles in order of appearance, persons first; locked and idle left out",
			OwnerQuery{Binary: "a"}, "Root Dev/a: bugowner=ann bugowner=@active maintainer=@active"},
		{"devel=0: the package's project", OwnerQuery{Binary: "a", Devel: "0"}, "Root Root/: maintainer=ann"},
		{"a devel package in a hidden project does not answer", OwnerQuery{Binary: "b"}, "Root Root/: maintainer=ann"},
		{"a devel loop ends", OwnerQuery{Binary: "c"}, "Root Root/: maintainer=ann"},
		{"through the devel package's project's devel project", OwnerQuery{Binary: "d"}, "Root Dev/d: maintainer=ann"},
		{"nobody in Root for bugowner: the linked project's package", OwnerQuery{Binary: "e", Filter: &bugowner}, "Root Base/e: bugowner=ann"},
		{"limit 0: the linked package answered once", OwnerQuery{Binary: "e", Filter: &bugowner, Limit: "0"}, "Root Base/e: bugowner=ann"},
		{"a user in the root and its links", OwnerQuery{User: "ann"}, "Root Root/: | Root Base/e:"},
		{"a user's bugowner places", OwnerQuery{User: "ann", Filter: &bugowner}, "Root Base/e:"},
	} {
		got, err := s.SearchOwners(outsider, c.q)
		if err != nil || ownersText(got) != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, ownersText(got), err, c.want)
		}
	}

	missing, err := s.SearchMissingOwners(outsider, OwnerQuery{Filter: &bugowner})
	if want := "Root Root/a: | Root Root/b: | Root Root/c: | Root Root/d:"; err != nil || ownersText(missing) != want {
		t.Errorf("missing bugowners: %q, %v; want %q", ownersText(missing), err, want)
	}

	bugownerOnly := ownerWorld(t, "BugownerOnly", "DisableDevel")
	got, err := bugownerOnly.SearchOwners(outsider, OwnerQuery{Binary: "a"})
	if err != nil || len(got) != 0 {
		t.Errorf("BugownerOnly and DisableDevel: %q, %v; want nothing (Root/a and Root hold no bugowner)", ownersText(got), err)
	}
	if got, err := bugownerOnly.SearchOwners(outsider, OwnerQuery{Binary: "a", Devel: "1"}); err != nil || ownersText(got) != "Root Dev/a: bugowner=ann bugowner=@active" {
		t.Errorf("BugownerOnly with devel=1: %q, %v", ownersText(got), err)
	}
}
