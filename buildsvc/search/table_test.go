package search

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/buildsvc/requestdoc"
	"github.com/pocketforge/pocketforge/search/xpath"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The search table: queries per root with the matches they must find in tableWorld
// (search_table_world_test.go), as Admin unless a case says who. Every query osc 0.169 sends
// is here (build-notes §6), and the documented simplifications show as they are:
//   - `=` compares exactly (OBS's collation would ignore case): `@creator='ALICE'` finds nothing;
//   - (OBS's rule, not a simplification) conditions joined by and on one repeated element read
//     one entry: `person/@userid='alice' and person/@role='maintainer'` does not find
//     devel:tools/hello, where alice is bugowner and bob maintainer (search/xpath's pairRows);
//   - a project's document holds no packages, so `package/@name` finds no project.
// Each query is also evaluated on every record's document (the full scan the planner must
// agree with): search_table_test's scan functions.

type tableCase struct {
	match string
	want  string // the matches, space-separated (requests: ids; packages: short project/name; projects: short names)
	who   string // "" is Admin
}

var shortProject = map[string]string{"devel:tools": "dt", "home:alice": "ha", "home:alice:branches:devel:tools": "hab",
	"openSUSE:Factory": "oF", "openSUSE:Maintenance": "oM", "secret": "sec"}

const coQuery = `(state/@name='new' or state/@name='review') and (action/target/@project='%s' or action/source/@project='%s') and (action/target/@package='%s' or action/source/@package='%s')`

func co(p, k string) string { return sprintf4(coQuery, p, p, k, k) }

func sprintf4(f string, a ...string) string {
	for _, v := range a {
		f = strings.Replace(f, "%s", v, 1)
	}
	return f
}

func whoOf(login string) buildstore.Person {
	if login == "" {
		return searchAdmin
	}
	return buildstore.Person{Login: login}
}

func TestSearchTableRequests(t *testing.T) {
	s := tableWorld(t)
	for _, c := range requestTable {
		t.Run(c.match, func(t *testing.T) {
			found, err := s.SearchRequests(whoOf(c.who), c.match, false, Page{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range found.Records {
				got = append(got, strconv.FormatUint(r.ID, 10))
			}
			check(t, got, found.Matches, c.want, scanRequests(t, s, c))
		})
	}
}

func TestSearchTablePackages(t *testing.T) {
	s := tableWorld(t)
	for _, c := range packageTable {
		t.Run(c.match, func(t *testing.T) {
			found, err := s.SearchPackages(whoOf(c.who), c.match, false, Page{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, k := range found.Records {
				got = append(got, shortProject[k.Project]+"/"+k.Name)
			}
			check(t, got, found.Matches, c.want, scanPackages(t, s, c))
			ids, err := s.SearchPackages(whoOf(c.who), c.match, true, Page{})
			if err != nil || ids.Matches != found.Matches || len(ids.Records) != len(found.Records) {
				t.Fatalf("/id: %+v, %v", ids, err)
			}
			for i, k := range ids.Records {
				if k.Project != found.Records[i].Project || k.Name != found.Records[i].Name {
					t.Errorf("/id: %s/%s, the full route %s/%s", k.Project, k.Name, found.Records[i].Project, found.Records[i].Name)
				}
			}
		})
	}
}

func TestSearchTableProjects(t *testing.T) {
	s := tableWorld(t)
	for _, c := range projectTable {
		t.Run(c.match, func(t *testing.T) {
			found, err := s.SearchProjects(whoOf(c.who), c.match, false, Page{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range found.Records {
				got = append(got, shortProject[p.Name])
			}
			check(t, got, found.Matches, c.want, scanProjects(t, s, c))
			ids, err := s.SearchProjects(whoOf(c.who), c.match, true, Page{})
			if err != nil || ids.Matches != found.Matches || len(ids.Records) != len(found.Records) {
				t.Fatalf("/id: %+v, %v", ids, err)
			}
			for i, p := range ids.Records {
				if p.Name != found.Records[i].Name {
					t.Errorf("/id: %s, the full route %s", p.Name, found.Records[i].Name)
				}
			}
		})
	}
}

// check holds a search's matches to the table's and to the full scan's.
func check(t *testing.T, got []string, matches int, want string, scan []string) {
	t.Helper()
	w := strings.Fields(want)
	if !slices.Equal(got, w) || matches != len(w) {
		t.Errorf("got %v (%d matches), want %v", got, matches, w)
	}
	if !slices.Equal(got, scan) {
		t.Errorf("got %v, the full scan finds %v", got, scan)
	}
}

// scanRequests evaluates the query on every request's document, the way before any plan.
func scanRequests(t *testing.T, s *Service, c tableCase) []string {
	q := compileOrFail(t, "request", c.match)
	var out []string
	err := s.db.View(func(tx kv.Tx) error {
		return buildstore.EachRequest(tx, func(r buildstore.Request) (bool, error) {
			if !buildsvc.RequestVisible(tx, whoOf(c.who), r) {
				return true, nil
			}
			ok, err := matches(q, requestdoc.Render(r, requestdoc.WithFullHistory))
			if ok {
				out = append(out, strconv.FormatUint(r.ID, 10))
			}
			return err == nil, err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func scanPackages(t *testing.T, s *Service, c tableCase) []string {
	q := compileOrFail(t, "package", c.match)
	var out []string
	err := s.db.View(func(tx kv.Tx) error {
		return buildsvc.EachVisiblePackage(tx, whoOf(c.who), func(k buildstore.Package) error {
			ok, err := matches(q, metadoc.FromPackage(k))
			if ok {
				out = append(out, shortProject[k.Project]+"/"+k.Name)
			}
			return err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func scanProjects(t *testing.T, s *Service, c tableCase) []string {
	q := compileOrFail(t, "project", c.match)
	var out []string
	err := s.db.View(func(tx kv.Tx) error {
		return buildsvc.EachVisibleProject(tx, whoOf(c.who), nil, func(p buildstore.Project) error {
			ok, err := matches(q, metadoc.FromProject(p))
			if ok {
				out = append(out, shortProject[p.Name])
			}
			return err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func compileOrFail(t *testing.T, root, match string) *xpath.Query {
	t.Helper()
	q, err := xpath.Compile(root, match)
	if err != nil {
		t.Fatal(errors.Join(errors.New(match), err))
	}
	return q
}

// TestSearchKeyOnlyPage: a predicate on names alone decodes the records of the page only, and
// those fully.
func TestSearchKeyOnlyPage(t *testing.T) {
	s := tableWorld(t)
	got, err := s.SearchPackages(searchAdmin, `starts-with(@name, 'h')`, false, Page{Offset: 1, Limit: 2})
	if err != nil || got.Matches != 6 || len(got.Records) != 2 {
		t.Fatalf("%+v, %v", got, err)
	}
	if k := got.Records[0]; k.Project != "home:alice" || k.Name != "hello" || k.Title != "hello" || k.Devel == nil {
		t.Errorf("first of the page: %+v", k)
	}
	prj, err := s.SearchProjects(searchAdmin, `starts-with(@name, 'home')`, false, Page{Offset: 1})
	if err != nil || prj.Matches != 2 || len(prj.Records) != 1 || prj.Records[0].Title != "Branch of devel:tools" {
		t.Fatalf("%+v, %v", prj, err)
	}
}
