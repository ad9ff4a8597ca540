package search

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/buildsvc/requestdoc"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/search/xpath"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// searchWorld is a service over a store of n random requests and a few projects of packages,
// all named from small sets so that searches find some of each.
func searchWorld(t testing.TB, n int) *Service {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	projects := []string{"devel:tools", "home:alice", "home:alice:branches:devel:tools", "openSUSE:Factory"}
	pkgs := []string{"hello", "zlib", "bash"}
	people := []string{"alice", "bob", "carol"}
	states := []string{buildstore.RequestNew, buildstore.RequestReview, buildstore.RequestDeclined, buildstore.RequestAccepted}
	err = db.Write(func(tx kv.Tx) error {
		for _, prj := range projects {
			if err := buildstore.PutProject(tx, buildstore.Project{Name: prj}); err != nil {
				return err
			}
			for _, k := range pkgs {
				if err := buildstore.PutPackage(tx, buildstore.Package{Project: prj, Name: k, Title: k,
					Devel: &buildstore.Devel{Project: pick(projects...), Package: pick(pkgs...)}}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	// Requests go in batches: bbolt keeps a transaction's writes in sorted slices, so one
	// transaction of 20,000 requests (200,000 index keys) costs a minute of copying.
	for first := 1; first <= n && err == nil; first += 500 {
		err = db.Write(func(tx kv.Tx) error {
			for id := uint64(first); id <= uint64(min(first+499, n)); id++ {
				req := buildstore.Request{ID: id, Creator: pick(people...),
					State:   buildstore.RequestState{Name: pick(states...), Who: pick(people...), When: now, Created: now},
					History: []buildstore.HistoryRecord{{Who: pick(people...), When: now, Description: "Request created"}}}
				for range 1 + r.IntN(2) {
					req.Actions = append(req.Actions, buildstore.RequestAction{Type: pick("submit", "delete"),
						Source: &buildstore.ActionSource{Project: pick(projects...), Package: pick(pkgs...)},
						Target: &buildstore.ActionTarget{Project: pick(projects...), Package: pick(pkgs...)}})
				}
				for range r.IntN(3) {
					req.Reviews = append(req.Reviews, buildstore.Review{State: pick(states...), ByUser: pick(people...)})
				}
				if err := buildstore.PutRequest(tx, req); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	return New(buildsvc.New(db, clock.NewFixed(now), nil, buildsvc.Options{}), db)
}

var searchAdmin = buildstore.Person{Login: "Admin", GlobalRoles: []string{buildstore.RoleAdmin}}

// TestSearchPlanAgreesWithScan: a search narrowed by the indexes finds exactly what
// evaluating the predicate on every record finds.
func TestSearchPlanAgreesWithScan(t *testing.T) {
	s := searchWorld(t, 400)
	co := `(state/@name='new' or state/@name='review') and (action/target/@project='%[1]s' or action/source/@project='%[1]s') and (action/target/@package='%[2]s' or action/source/@package='%[2]s')`
	requestQueries := []string{
		fmt.Sprintf(co, "devel:tools", "hello"), fmt.Sprintf(co, "home:alice:branches:devel:tools", "zlib"),
		`(state/@name='new' or state/@name='review' or state/@name='declined') and action[source/@project='home:alice' and source/@package='hello' and target/@project='devel:tools' and target/@package='hello'] and action/@type='submit'`,
		`(state/@name='declined' or state/@name='new' or state/@name='review') and (action/target/@project='openSUSE:Factory' or action/source/@project='openSUSE:Factory')`,
		`((state/@name='review') and review/@state='new') and review[@by_user='carol' and @state='new']`,
		`(state/@who='bob' or history/@who='bob')`, `@creator='alice' and not(state/@name='accepted')`,
		`target/@project='home:alice' or @creator='nobody'`, `state/@name='nope'`,
		`(state/@name='new' or state/@name='review' or state/@name='declined') and (state/@who='carol' or history/@who='carol')`,
		`state/@who='alice' and action/target/@package='zlib'`, `review/@state='new' and not(review/@by_user='bob')`,
	}
	for _, m := range requestQueries {
		got, err := s.SearchRequests(searchAdmin, m, false, Page{})
		if err != nil {
			t.Fatal(err)
		}
		q, _ := xpath.Compile("request", m)
		var want []uint64
		if err := s.db.View(func(tx kv.Tx) error {
			return buildstore.EachRequest(tx, func(r buildstore.Request) (bool, error) {
				ok, err := matches(q, requestdoc.Render(r, requestdoc.WithFullHistory))
				if ok {
					want = append(want, r.ID)
				}
				return err == nil, err
			})
		}); err != nil {
			t.Fatal(err)
		}
		var ids []uint64
		for _, r := range got.Records {
			ids = append(ids, r.ID)
		}
		if !slices.Equal(ids, want) || got.Matches != len(want) || len(want) == 0 && m != `state/@name='nope'` {
			t.Errorf("%s: %d matches %v, want %v", m, got.Matches, ids, want)
		}
	}
	packageQueries := []string{`@project='devel:tools'`, `@name='hello' and (@project='home:alice' or @project='openSUSE:Factory')`,
		`([devel/[@project='devel:tools' and @package='zlib']])`, `@project='nope'`, `@name='zlib' or title='bash'`,
		`contains(@name, 'L')`, `starts-with(@project, 'home:')`, `@name='hello'`, `devel/@package='zlib' and @name='bash'`}
	for _, m := range packageQueries {
		got, err := s.SearchPackages(searchAdmin, m, true, Page{})
		if err != nil {
			t.Fatal(err)
		}
		q, _ := xpath.Compile("package", m)
		var want []string
		if err := s.db.View(func(tx kv.Tx) error {
			projects, _ := buildstore.Projects(tx)
			for _, p := range projects {
				pkgs, _ := buildstore.Packages(tx, p.Name)
				for _, k := range pkgs {
					if ok, _ := matches(q, metadoc.FromPackage(k)); ok {
						want = append(want, k.Project+"/"+k.Name)
					}
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, k := range got.Records {
			names = append(names, k.Project+"/"+k.Name)
		}
		if !slices.Equal(names, want) {
			t.Errorf("%s: %v, want %v", m, names, want)
		}
	}
}

// TestSearchPaging: matches counts everything, the page is offset then limit, as OBS pages.
func TestSearchPaging(t *testing.T) {
	s := searchWorld(t, 30)
	all, err := s.SearchRequests(searchAdmin, "*", false, Page{})
	if err != nil || all.Matches != 30 || len(all.Records) != 30 {
		t.Fatalf("all: %d %d %v", all.Matches, len(all.Records), err)
	}
	for _, c := range []struct {
		page  Page
		first uint64
		n     int
	}{
		{Page{Limit: 5}, 1, 5}, {Page{Offset: 28}, 29, 2}, {Page{Offset: 10, Limit: 3}, 11, 3},
		{Page{Offset: 40, Limit: 3}, 0, 0}, {Page{Offset: -1, Limit: -1}, 1, 30},
	} {
		got, err := s.SearchRequests(searchAdmin, "*", false, c.page)
		if err != nil || got.Matches != 30 || len(got.Records) != c.n || c.n > 0 && got.Records[0].ID != c.first {
			t.Errorf("%+v: %d matches, %d records, %v", c.page, got.Matches, len(got.Records), err)
		}
	}
	if _, err := s.SearchRequests(searchAdmin, " ", false, Page{}); fault.Code(err) != "empty_match" {
		t.Errorf("blank match: %v", err)
	}
	if got, err := s.SearchRequests(searchAdmin, "", true, Page{}); err != nil || got.Matches != 30 {
		t.Errorf("/id without a match: %d, %v", got.Matches, err)
	}
	if _, err := s.SearchPackages(searchAdmin, "count(person) > 1", false, Page{}); fault.Code(err) != "illegal_xpath_error" {
		t.Errorf("count(): %v", err)
	}
}
