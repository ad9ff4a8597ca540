package search

import (
	"errors"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/antchfx/xmlquery"
	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/buildsvc/requestdoc"
	"github.com/pocketforge/pocketforge/search/xpath"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

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

// wants reports whether the next match lands on the page (else add only counts it, and the
// record need not be decoded).
func (p *pager[T]) wants() bool {
	n := p.found.Matches
	return n >= p.page.Offset && (p.page.Limit <= 0 || n < p.page.Offset+p.page.Limit)
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
		return nil, buildsvc.BadRequest("empty_match", "%s", err.Error())
	case errors.As(err, &bad):
		return nil, buildsvc.BadRequest("illegal_xpath_error", "%s", bad.Msg)
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
// order, paged. Candidates come from the request index when the plan allows (search_plan.go),
// else from one cursor over every request; each is tested on its stored bytes first
// (byteFilter) and decoded, checked for visibility, rendered and evaluated only if it passes.
func (s *Service) SearchRequests(who buildstore.Person, match string, idOnly bool, page Page) (Found[buildstore.Request], error) {
	p := pager[buildstore.Request]{page: page}
	q, err := compileSearch("request", match, idOnly)
	if err != nil {
		return p.found, err
	}
	plan := q.Plan()
	filter := newByteFilter(plan, requestVerbatim)
	keyOnly := q.ReadsOnly(requestKeyKeys...)
	err = s.db.View(func(tx kv.Tx) error {
		visit := func(id uint64, raw []byte) (bool, error) {
			if !filter.pass(raw) {
				return true, nil
			}
			r, err := s.requests.Get(id, raw)
			if err != nil {
				return false, err
			}
			if !buildsvc.RequestVisible(tx, who, r) {
				return true, nil
			}
			var ok bool
			if keyOnly {
				var doc *xmlquery.Node
				if doc, err = requestKeyDoc(r); err == nil {
					ok = q.Match(doc)
				}
			} else {
				ok, err = matches(q, requestdoc.Render(r, requestdoc.WithFullHistory))
			}
			if ok {
				p.add(r)
			}
			return err == nil, err
		}
		ids, planned, err := requestCandidates(tx, plan)
		if err != nil || !planned {
			return errors.Join(err, buildstore.EachRawRequest(tx, visit))
		}
		return buildstore.EachRawRequestIn(tx, ids, visit)
	})
	return p.found, err
}

// SearchPackages answers /search/package[/id]: the live packages of the projects who may see
// that match, by project and name, paged. A predicate that reads only @name and @project is
// evaluated on a document of the package's key alone (keyDoc) — one that reads only @project
// once per project, since it answers alike for all its packages (`@project='P'` over a project
// of 20,000 packages evaluated it 20,000 times) — and then a record is decoded only for the
// full route's page (the /id route's records hold only Project and Name), through the cache of
// decoded packages; any other predicate on the stored bytes first (byteFilter), then on the meta.
func (s *Service) SearchPackages(who buildstore.Person, match string, idOnly bool, page Page) (Found[buildstore.Package], error) {
	p := pager[buildstore.Package]{page: page}
	q, err := compileSearch("package", match, idOnly)
	if err != nil {
		return p.found, err
	}
	plan := q.Plan()
	keyOnly := q.ReadsOnly("@name", "@project")
	byProject := q.ReadsOnly("@project")
	withIssues := readsIssues(q) // issues.go: the package's issues join its document
	filter := newByteFilter(plan, packageVerbatim)
	stub := newKeyDoc("package", "name", "project")
	var lastProject string // candidates come in project order
	var lastMatch, matched bool
	keyMatch := func(project, name string) bool {
		if byProject && matched && project == lastProject {
			return lastMatch
		}
		lastProject, lastMatch, matched = project, q.Match(stub.with(name, project)), true
		return lastMatch
	}
	err = s.db.View(func(tx kv.Tx) error {
		gate := newProjectGate(tx, who)
		return eachPackageCandidate(tx, q, plan, func(project, name string, raw []byte) (bool, error) {
			if keyOnly && !keyMatch(project, name) || !keyOnly && !filter.pass(raw) ||
				buildstore.Tombstone(raw) || !gate.open(project) {
				return true, nil
			}
			if keyOnly && (idOnly || !p.wants()) {
				p.add(buildstore.Package{Project: project, Name: name})
				return true, nil
			}
			k, err := s.packages.Get(project+"\x00"+name, raw)
			if err != nil {
				return false, err
			}
			if !keyOnly {
				doc, err := packageMatchDoc(tx, k, withIssues)
				if err != nil {
					return false, err
				}
				if ok, err := matches(q, doc); err != nil || !ok {
					return err == nil, err
				}
			}
			p.add(k)
			return true, nil
		})
	})
	return p.found, err
}

// SearchProjects answers /search/project[/id]: the live projects who may see that match, by
// name, paged. A predicate that reads only @name is evaluated on a document of the name alone
// (and the /id route's records then hold only Name).
func (s *Service) SearchProjects(who buildstore.Person, match string, idOnly bool, page Page) (Found[buildstore.Project], error) {
	p := pager[buildstore.Project]{page: page}
	q, err := compileSearch("project", match, idOnly)
	if err != nil {
		return p.found, err
	}
	plan := q.Plan()
	keyOnly := q.ReadsOnly("@name")
	filter := newByteFilter(plan, projectVerbatim)
	stub := newKeyDoc("project", "name")
	err = s.db.View(func(tx kv.Tx) error {
		gate := newProjectGate(tx, who)
		return eachProjectCandidate(tx, q, plan, func(name string, raw []byte) (bool, error) {
			if keyOnly && !q.Match(stub.with(name)) || !keyOnly && !filter.pass(raw) || !gate.open(name) {
				return true, nil
			}
			if keyOnly && (idOnly || !p.wants()) {
				p.add(buildstore.Project{Name: name})
				return true, nil
			}
			prj, err := buildstore.DecodeProject(raw)
			if err != nil {
				return false, err
			}
			if !keyOnly {
				if ok, err := matches(q, metadoc.FromProject(prj)); err != nil || !ok {
					return err == nil, err
				}
			}
			p.add(prj)
			return true, nil
		})
	})
	return p.found, err
}
