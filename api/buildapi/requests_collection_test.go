package buildapi

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// collectionWorld adds, beside the demo world, persons and projects of its own (so the demo's
// requests never match its filters) and seven requests written straight into the store:
//
//	dora maintains coll:a and the hidden coll:hidden; group coll-team (emil) maintains coll:b;
//	fritz maintains package coll:b/pk and is in group coll-rev.
//	r1 emil   submit coll:a/x → coll:c/x                  new
//	r2 dora   submit coll:c/y → coll:b/pk                 review; by_user fritz new, by_group coll-rev accepted
//	r3 fritz  delete coll:a/z                             declined
//	r4 emil   add_role coll:b                             review; by_project coll:a new
//	r5 dora   submit coll:hidden/h → coll:hidden/h        new
//	r6 Admin  submit coll:c/w → coll:c/w                  review; by_group coll-rev new
//	r7 gina   submit coll:c/v → coll:c/v, delete coll:a/v new
func collectionWorld(t *testing.T, e *env) map[string]uint64 {
	t.Helper()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	maint := func(ids ...string) []buildstore.Role {
		var out []buildstore.Role
		for _, id := range ids {
			out = append(out, buildstore.Role{ID: id, Role: buildstore.RoleMaintainer})
		}
		return out
	}
	submit := func(sp, sk, tp, tk string) buildstore.RequestAction {
		return buildstore.RequestAction{Type: "submit", Source: &buildstore.ActionSource{Project: sp, Package: sk},
			Target: &buildstore.ActionTarget{Project: tp, Package: tk}}
	}
	target := func(typ, tp, tk string) buildstore.RequestAction {
		return buildstore.RequestAction{Type: typ, Target: &buildstore.ActionTarget{Project: tp, Package: tk}}
	}
	requests := []struct {
		label, creator, state string
		actions               []buildstore.RequestAction
		reviews               []buildstore.Review
	}{
		{"r1", "emil", "new", []buildstore.RequestAction{submit("coll:a", "x", "coll:c", "x")}, nil},
		{"r2", "dora", "review", []buildstore.RequestAction{submit("coll:c", "y", "coll:b", "pk")},
			[]buildstore.Review{{State: "new", ByUser: "fritz"}, {State: "accepted", ByGroup: "coll-rev"}}},
		{"r3", "fritz", "declined", []buildstore.RequestAction{target("delete", "coll:a", "z")}, nil},
		{"r4", "emil", "review", []buildstore.RequestAction{{Type: "add_role", Target: &buildstore.ActionTarget{Project: "coll:b"},
			Person: &buildstore.ActionRole{Name: "emil", Role: "bugowner"}}}, []buildstore.Review{{State: "new", ByProject: "coll:a"}}},
		{"r5", "dora", "new", []buildstore.RequestAction{submit("coll:hidden", "h", "coll:hidden", "h")}, nil},
		{"r6", "Admin", "review", []buildstore.RequestAction{submit("coll:c", "w", "coll:c", "w")},
			[]buildstore.Review{{State: "new", ByGroup: "coll-rev"}}},
		{"r7", "gina", "new", []buildstore.RequestAction{submit("coll:c", "v", "coll:c", "v"), target("delete", "coll:a", "v")}, nil},
	}
	ids := map[string]uint64{}
	err := e.db.Write(func(tx kv.Tx) error {
		for _, login := range []string{"dora", "emil", "fritz", "gina"} {
			p := buildstore.Person{Login: login, Email: login + "@pocketforge.test", State: buildstore.StateConfirmed, Created: now}
			if login == "dora" {
				if err := p.SetPassword("dora-password"); err != nil {
					return err
				}
			}
			if login == "gina" {
				p.State = buildstore.StateDeleted
			}
			if err := buildstore.PutPerson(tx, p); err != nil {
				return err
			}
		}
		for _, g := range []buildstore.Group{{Title: "coll-team", Members: []string{"emil"}}, {Title: "coll-rev", Members: []string{"fritz"}}} {
			if err := buildstore.PutGroup(tx, g); err != nil {
				return err
			}
		}
		for _, p := range []buildstore.Project{
			{Name: "coll:a", Persons: maint("dora")},
			{Name: "coll:b", Groups: maint("coll-team")},
			{Name: "coll:c", Persons: maint("Admin")},
			{Name: "coll:hidden", Persons: maint("dora"), Flags: []buildstore.Flag{{Name: "access", Status: "disable"}}},
		} {
			p.Title, p.Created = p.Name, now
			if err := buildstore.PutProject(tx, p); err != nil {
				return err
			}
		}
		if err := buildstore.PutPackage(tx, buildstore.Package{Project: "coll:b", Name: "pk", Persons: maint("fritz"), Created: now}); err != nil {
			return err
		}
		for _, r := range requests {
			id, err := buildstore.NewRequestID(tx)
			if err != nil {
				return err
			}
			ids[r.label] = id
			history := []buildstore.HistoryRecord{{Who: r.creator, When: now, Description: "Request created"}}
			if err := buildstore.PutRequest(tx, buildstore.Request{ID: id, Creator: r.creator, Actions: r.actions, Reviews: r.reviews,
				State: buildstore.RequestState{Name: r.state, Who: r.creator, When: now, Created: now}, History: history,
				Description: r.label, Updated: now}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

var asDora = basic("dora", "dora-password")

var requestIDAttr = regexp.MustCompile(`<request id="(\d+)"`)

// TestRequestCollection: each role of the user, group and project filters, their combinations,
// states, types, review states and ids, read protection, and the refusals.
func TestRequestCollection(t *testing.T) {
	e := newEnv(t)
	ids := collectionWorld(t, e)
	cases := []struct {
		name  string
		query string
		as    map[string]string
		want  []string
		// some: the answer holds want among others (the demo world's requests may match too).
		some bool
	}{
		{"user: every role", "user=dora", asAdmin, []string{"r2", "r3", "r4", "r5", "r7"}, false},
		{"user as creator", "user=dora&roles=creator", asAdmin, []string{"r2", "r5"}, false},
		{"user as maintainer of target projects", "user=dora&roles=maintainer", asAdmin, []string{"r3", "r5", "r7"}, false},
		{"user as reviewer through a maintained project", "user=dora&roles=reviewer", asAdmin, []string{"r4"}, false},
		{"user as maintainer through a group", "user=emil&roles=maintainer", asAdmin, []string{"r2", "r4"}, false},
		{"user: every role, group included", "user=emil", asAdmin, []string{"r1", "r2", "r4"}, false},
		{"user as maintainer of a target package", "user=fritz&roles=maintainer", asAdmin, []string{"r2"}, false},
		{"user as reviewer: by_user and by_group, state new", "user=fritz&roles=reviewer", asAdmin, []string{"r2", "r6"}, false},
		{"user as reviewer of accepted reviews", "user=fritz&roles=reviewer&reviewstates=accepted", asAdmin, []string{"r2"}, false},
		{"user as creator or maintainer", "user=fritz&roles=creator,maintainer", asAdmin, []string{"r2", "r3"}, false},
		{"group", "group=coll-rev&states=review", asAdmin, []string{"r6"}, false},
		{"group with review states", "group=coll-rev&reviewstates=new,accepted", asAdmin, []string{"r2", "r6"}, false},
		{"group as maintainer", "group=coll-team&roles=maintainer&states=review", asAdmin, []string{"r2", "r4"}, false},
		{"project: every role", "project=coll:a", asAdmin, []string{"r1", "r3", "r4", "r7"}, false},
		{"project as source", "project=coll:a&roles=source", asAdmin, []string{"r1"}, false},
		{"project as target", "project=coll:a&roles=target", asAdmin, []string{"r3", "r7"}, false},
		{"project as reviewer", "project=coll:a&roles=reviewer", asAdmin, []string{"r4"}, false},
		{"project with states without review: no project reviews", "project=coll:a&states=new,declined", asAdmin, []string{"r1", "r3", "r7"}, false},
		{"project with review state asked", "project=coll:a&states=review", asAdmin, []string{"r4"}, false},
		{"project and package", "project=coll:b&package=pk", asAdmin, []string{"r2"}, false},
		{"project and package as source: none", "project=coll:b&package=pk&roles=source", asAdmin, nil, false},
		{"user and project", "project=coll:a&user=emil", asAdmin, []string{"r1", "r4"}, false},
		{"user and project, one action and one review together", "project=coll:c&user=dora&roles=maintainer,target", asAdmin, nil, false},
		{"types on the action the project names", "project=coll:a&types=submit", asAdmin, []string{"r1"}, false},
		{"types: the delete of a two-action request", "project=coll:a&types=delete&roles=target", asAdmin, []string{"r3", "r7"}, false},
		{"types: the submit of it is not on coll:a", "project=coll:c&types=delete", asAdmin, nil, false},
		{"states and user", "user=emil&states=review", asAdmin, []string{"r2", "r4"}, false},
		{"states alone", "states=declined", asAdmin, []string{"r3"}, true},
		{"types alone", "types=add_role", asAdmin, []string{"r4"}, true},
		{"review states alone: every request", "reviewstates=new", asAdmin, []string{"r1", "r2", "r3", "r4", "r5", "r6", "r7"}, true},
		{"ids", "ids=" + id(ids, "r3") + "," + id(ids, "r1"), asAdmin, []string{"r1", "r3"}, false},
		{"ids and user", "ids=" + id(ids, "r3") + "," + id(ids, "r1") + "&user=emil", asAdmin, []string{"r1"}, false},
		{"ids that are not numbers", "ids=x", asAdmin, nil, false},
		{"roles that are none of the project's", "project=coll:a&roles=creator", asAdmin, nil, false},
		{"unknown project", "project=nope", asAdmin, nil, false},
		{"hidden project left out for others", "user=dora", asAlice, []string{"r2", "r3", "r4", "r7"}, false},
		{"hidden project shown to its maintainer", "project=coll:hidden", asDora, []string{"r5"}, false},
		{"hidden project: nothing for others", "project=coll:hidden", asBob, nil, false},
		{"any user's requests for anyone", "user=emil&roles=creator", asBob, []string{"r1", "r4"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := apitest.Do(t, e.app, req("GET", "/request?view=collection&"+c.query, c.as, ""))
			if got.Status != 200 {
				t.Fatalf("status %d: %s", got.Status, got.Body)
			}
			var labels []string
			for _, m := range requestIDAttr.FindAllStringSubmatch(got.Body, -1) {
				labels = append(labels, labelOf(ids, m[1]))
			}
			if c.some {
				for _, w := range c.want {
					if !slices.Contains(labels, w) {
						t.Errorf("%s missing from %v", w, labels)
					}
				}
				return
			}
			if !slices.Equal(labels, c.want) {
				t.Errorf("got %v, want %v", labels, c.want)
			}
			if !strings.Contains(got.Body, `<collection matches="`+strconv.Itoa(len(c.want))+`"`) {
				t.Errorf("matches: %.200s", got.Body)
			}
		})
	}
}

// TestRequestCollectionAnswers: the refusals, the history switches and the plain listing.
func TestRequestCollectionAnswers(t *testing.T) {
	e := newEnv(t)
	ids := collectionWorld(t, e)
	r1, r5 := id(ids, "r1"), id(ids, "r5")
	requireFilter := code(404, "require_filter",
		"This call requires at least one filter, either by user, project or package or states or types or reviewstates")
	e.run(t, []scenario{
		{"no credentials", req("GET", "/request?view=collection&user=dora", nil, ""), apitest.Expect{Status: 401}},
		{"no filter", req("GET", "/request?view=collection", asBob, ""), requireFilter},
		{"package alone is no filter", req("GET", "/request?view=collection&package=pk", asBob, ""), requireFilter},
		{"group alone is no filter", req("GET", "/request?view=collection&group=coll-rev", asBob, ""), requireFilter},
		{"roles alone are no filter", req("GET", "/request?view=collection&roles=creator", asBob, ""), requireFilter},
		{"unknown user", req("GET", "/request?view=collection&user=nobody", asBob, ""),
			code(404, "not_found", "Couldn't find User with login = nobody")},
		{"deleted user", req("GET", "/request?view=collection&user=gina", asBob, ""), code(404, "not_found")},
		{"unknown group", req("GET", "/request?view=collection&group=nope&user=dora", asBob, ""), code(404, "not_found", "Couldn't find Group 'nope'")},
		{"unknown state", req("GET", "/request?view=collection&user=dora&states=new,open", asBob, ""),
			code(400, "invalid_parameter", "states: unknown request state 'open'")},
		{"unknown review state", req("GET", "/request?view=collection&reviewstates=done", asBob, ""), code(400, "invalid_parameter", "reviewstates")},
		{"unknown type", req("GET", "/request?view=collection&types=merge", asBob, ""), code(400, "invalid_parameter", "types: unknown request action type 'merge'")},
		{"unknown role", req("GET", "/request?view=collection&user=dora&roles=owner", asBob, ""), code(400, "invalid_parameter", "roles: unknown request role 'owner'")},
		{"no history", req("GET", "/request?view=collection&ids="+r1, asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<request id="` + r1 + `" creator="emil">`, `<description>r1</description>`}, Excludes: []string{"<history"}}},
		{"withhistory", req("GET", "/request?view=collection&ids="+r1+"&withhistory=1", asBob, ""),
			want(200, `<history who="emil" when="2026-11-22T12:00:00">`, "<description>Request created</description>")},
		{"directory without view", req("GET", "/request", asDora, ""),
			want(200, "<directory>", `<entry name="`+r1+`"></entry>`, `<entry name="`+r5+`"></entry>`)},
		{"directory leaves hidden requests out", req("GET", "/request", asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<entry name="` + r1 + `"></entry>`}, Excludes: []string{`<entry name="` + r5 + `">`}}},
	})
}

func id(ids map[string]uint64, label string) string { return strconv.FormatUint(ids[label], 10) }

// labelOf names an id of collectionWorld's requests by its label, any other by its number.
func labelOf(ids map[string]uint64, raw string) string {
	for label, v := range ids {
		if strconv.FormatUint(v, 10) == raw {
			return label
		}
	}
	return "#" + raw
}
