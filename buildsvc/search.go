package buildsvc

import (
	"errors"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/buildsvc/requestdoc"
	"github.com/pocketforge/pocketforge/search/xpath"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// The xpath searches (/search/request, /search/package, /search/project and their /id
// forms): the `match` predicate compiled by search/xpath as OBS takes it, evaluated on each
// record's document as the service renders it — a request with its full history (so
// `history/@who` finds who changed it), a package or project meta as GET …/_meta shows it.
//
// Simplified: a search evaluates every record it may match (requests in id order, projects and
// packages by name), each record's tree built anew; only the equalities search_plan.go can read
// from what the store already keys narrow that down (issue 16 adds indexes for the rest). OBS
// orders requests by priority and age; here they come in id order. What who may not see is
// skipped before it is counted: requests RequestVisible refuses, projects hidden from who and
// their packages.

// Found is one page of a search's matches: Matches counts them all (the collection's
// matches attribute), Records holds the page.
type Found[T any] struct {
	Matches int
	Records []T
}

// Page says which matches a search returns: Offset skipped, then at most Limit (0 or less:
// all the rest), as OBS's limit and offset parameters do.
type Page struct{ Limit, Offset int }

// pager collects the matches of one page while counting all of them.
type pager[T any] struct {
	page  Page
	found Found[T]
}

func (p *pager[T]) add(v T) {
	n := p.found.Matches
	p.found.Matches++
	if n < p.page.Offset || p.page.Limit > 0 && n >= p.page.Offset+p.page.Limit {
		return
	}
	p.found.Records = append(p.found.Records, v)
}

// compileSearch compiles match for root. A blank match is 400 empty_match on the full routes
// and matches everything on the /id routes (OBS searches for `*` there); a predicate OBS
// refuses is 400 illegal_xpath_error with its message.
func compileSearch(root, match string, idOnly bool) (*xpath.Query, error) {
	if idOnly && strings.TrimSpace(match) == "" {
		match = "*"
	}
	q, err := xpath.Compile(root, match)
	var bad *xpath.Error
	switch {
	case errors.Is(err, xpath.ErrEmptyMatch):
		return nil, BadRequest("empty_match", "%s", err.Error())
	case errors.As(err, &bad):
		return nil, BadRequest("illegal_xpath_error", "%s", bad.Msg)
	}
	return q, err
}

// matches evaluates q on doc, a document of the service (xpath.Document builds its tree).
func matches(q *xpath.Query, doc any) (bool, error) {
	d, err := xpath.Document(doc)
	if err != nil {
		return false, err
	}
	return q.Match(d), nil
}

// SearchRequests answers /search/request[/id]: the requests who may see that match, in id
// order, paged.
func (s *Service) SearchRequests(who buildstore.Person, match string, idOnly bool, page Page) (Found[buildstore.Request], error) {
	p := pager[buildstore.Request]{page: page}
	q, err := compileSearch("request", match, idOnly)
	if err != nil {
		return p.found, err
	}
	err = s.db.View(func(tx *bbolt.Tx) error {
		visit := func(r buildstore.Request) (bool, error) {
			if !RequestVisible(tx, who, r) {
				return true, nil
			}
			ok, err := matches(q, requestdoc.Render(r, requestdoc.WithFullHistory))
			if ok {
				p.add(r)
			}
			return err == nil, err
		}
		ids, planned, err := requestCandidates(tx, q.Plan())
		if err != nil || !planned {
			return errors.Join(err, buildstore.EachRequest(tx, visit))
		}
		for _, id := range ids {
			r, err := buildstore.GetRequest(tx, id)
			if err != nil {
				return err
			}
			if _, err := visit(r); err != nil {
				return err
			}
		}
		return nil
	})
	return p.found, err
}

// SearchPackages answers /search/package[/id]: the live packages of the projects who may see
// that match, by project and name, paged.
func (s *Service) SearchPackages(who buildstore.Person, match string, idOnly bool, page Page) (Found[buildstore.Package], error) {
	p := pager[buildstore.Package]{page: page}
	q, err := compileSearch("package", match, idOnly)
	if err != nil {
		return p.found, err
	}
	plan := q.Plan()
	names, byName := plannedValues(plan, "@name")
	err = s.db.View(func(tx *bbolt.Tx) error {
		return eachVisibleProject(tx, who, plan, func(prj buildstore.Project) error {
			pkgs, err := packageCandidates(tx, prj.Name, names, byName)
			if err != nil {
				return err
			}
			for _, k := range pkgs {
				ok, err := matches(q, metadoc.FromPackage(k))
				if err != nil {
					return err
				}
				if ok {
					p.add(k)
				}
			}
			return nil
		})
	})
	return p.found, err
}

// packageCandidates are the live packages of project called names, or all of them when
// byName is false.
func packageCandidates(tx *bbolt.Tx, project string, names []string, byName bool) ([]buildstore.Package, error) {
	if !byName {
		return buildstore.Packages(tx, project)
	}
	var out []buildstore.Package
	for _, name := range names {
		if k, err := buildstore.GetPackage(tx, project, name); err == nil {
			out = append(out, k)
		}
	}
	return out, nil
}

// SearchProjects answers /search/project[/id]: the live projects who may see that match, by
// name, paged.
func (s *Service) SearchProjects(who buildstore.Person, match string, idOnly bool, page Page) (Found[buildstore.Project], error) {
	p := pager[buildstore.Project]{page: page}
	q, err := compileSearch("project", match, idOnly)
	if err != nil {
		return p.found, err
	}
	plan := renameKey(q.Plan(), "@name", "@project")
	err = s.db.View(func(tx *bbolt.Tx) error {
		return eachVisibleProject(tx, who, plan, func(prj buildstore.Project) error {
			ok, err := matches(q, metadoc.FromProject(prj))
			if ok {
				p.add(prj)
			}
			return err
		})
	})
	return p.found, err
}

// eachVisibleProject calls fn with every live project not hidden from who, by name: those a
// term of plan on @project names, or all.
func eachVisibleProject(tx *bbolt.Tx, who buildstore.Person, plan [][]xpath.Eq, fn func(buildstore.Project) error) error {
	var projects []buildstore.Project
	if names, ok := plannedValues(plan, "@project"); ok {
		for _, name := range names {
			if prj, err := buildstore.GetProject(tx, name); err == nil {
				projects = append(projects, prj)
			}
		}
	} else {
		var err error
		if projects, err = buildstore.Projects(tx); err != nil {
			return err
		}
	}
	for _, prj := range projects {
		if !who.IsAdmin() && HiddenFrom(tx, who, prj) {
			continue
		}
		if err := fn(prj); err != nil {
			return err
		}
	}
	return nil
}

// renameKey is plan with the equalities on key from read as on key to (a project's @name is
// what eachVisibleProject reads as @project; a project document has no @project of its own).
func renameKey(plan [][]xpath.Eq, from, to string) [][]xpath.Eq {
	var out [][]xpath.Eq
	for _, term := range plan {
		t := slices.Clone(term)
		for i := range t {
			if t[i].Key == from {
				t[i].Key = to
			}
		}
		out = append(out, t)
	}
	return out
}
