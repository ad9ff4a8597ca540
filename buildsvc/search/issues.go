package search

import (
	"encoding/xml"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/buildsvc/metadoc"
	"github.com/pocketforge/pocketforge/search/xpath"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// issueMatchDoc is what /search/issue evaluates OBS's keys on (@name @state @tracker
// owner/@email owner/@login).
type issueMatchDoc struct {
	XMLName xml.Name       `xml:"issue"`
	Name    string         `xml:"name,attr"`
	Tracker string         `xml:"tracker,attr"`
	State   string         `xml:"state,attr,omitempty"`
	Owner   *issueOwnerDoc `xml:"owner"`
}

type issueOwnerDoc struct {
	Login string `xml:"login,attr"`
	Email string `xml:"email,attr"`
}

func issueMatch(v buildsvc.IssueView) issueMatchDoc {
	d := issueMatchDoc{Name: v.Name, Tracker: v.Tracker, State: v.State}
	if v.OwnerPerson != nil {
		d.Owner = &issueOwnerDoc{Login: v.OwnerPerson.Login, Email: v.OwnerPerson.Email}
	}
	return d
}

// SearchIssues answers /search/issue: every issue record that matches, by tracker and name,
// paged. Equalities on @tracker (and @name) read those records alone; any other predicate
// streams the records. A blank match is 400 empty_match, a refused one 400
// illegal_xpath_error. who sees every issue: the records are global, as OBS's issues table.
func (s *Service) SearchIssues(who buildstore.Person, match string, page Page) (Found[buildsvc.IssueView], error) {
	p := pager[buildsvc.IssueView]{page: page}
	q, err := compileSearch("issue", match, false)
	if err != nil {
		return p.found, err
	}
	plan := q.Plan()
	err = s.db.View(func(tx kv.Tx) error {
		v, err := buildsvc.NewIssueViewer(tx)
		if err != nil {
			return err
		}
		visit := func(i buildstore.Issue) (bool, error) {
			iv := v.View(i, "")
			ok, err := matches(q, issueMatch(iv))
			if ok {
				p.add(iv)
			}
			return err == nil, err
		}
		trackers, byTracker := plannedValues(plan, "@tracker")
		names, byName := plannedValues(plan, "@name")
		switch {
		case byTracker && byName:
			for _, t := range trackers {
				for _, n := range names {
					if i, err := buildstore.GetIssue(tx, t, n); err == nil {
						if more, err := visit(i); err != nil || !more {
							return err
						}
					}
				}
			}
			return nil
		case byTracker:
			for _, t := range trackers {
				if err := buildstore.EachIssue(tx, t, visit); err != nil {
					return err
				}
			}
			return nil
		}
		return buildstore.EachIssue(tx, "", visit)
	})
	return p.found, err
}

// packageSearchDoc is a package's meta with its issues.
type packageSearchDoc struct {
	XMLName xml.Name `xml:"package"`
	metadoc.Package
	Issues []packageIssueDoc `xml:"issue"`
}

type packageIssueDoc struct {
	Name    string         `xml:"name,attr"`
	Tracker string         `xml:"tracker,attr"`
	State   string         `xml:"state,attr,omitempty"`
	Change  string         `xml:"change,attr,omitempty"`
	Owner   *issueOwnerDoc `xml:"owner"`
}

// readsIssues reports whether q reads a package's issues.
func readsIssues(q *xpath.Query) bool {
	return slices.ContainsFunc(q.Keys(), func(k string) bool { return k == "issue" || strings.HasPrefix(k, "issue/") })
}

// packageMatchDoc is the document a package search evaluates on k: its meta, with its issues
// when withIssues.
func packageMatchDoc(tx kv.Tx, k buildstore.Package, withIssues bool) (any, error) {
	meta := metadoc.FromPackage(k)
	if !withIssues {
		return meta, nil
	}
	list, err := buildstore.PackageIssues(tx, k.Project, k.Name)
	if err != nil {
		return nil, err
	}
	d := packageSearchDoc{Package: meta}
	for _, i := range list {
		doc := packageIssueDoc{Name: i.Name, Tracker: i.Tracker, Change: i.Change}
		if rec, err := buildstore.GetIssue(tx, i.Tracker, i.Name); err == nil {
			doc.State = rec.State
			if rec.Owner != "" {
				if p, err := buildstore.GetPerson(tx, rec.Owner); err == nil {
					doc.Owner = &issueOwnerDoc{Login: p.Login, Email: p.Email}
				}
			}
		}
		d.Issues = append(d.Issues, doc)
	}
	return d, nil
}
