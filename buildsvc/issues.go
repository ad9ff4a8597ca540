package buildsvc

import (
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Issues as OBS shows them: /search/issue over the issue records, GET /source/P/K?view=issues
// and GET /source/P?view=issues over the issues packages name (buildstore/issues.go keeps both;
// every commit scans its tree and sets the package's, issues_scan.go). An issue record is global, as in OBS — /search/issue lists every
// one, whoever named it — while which package names it is read through the package, so a
// hidden project's packages show in neither the package search nor view=issues to who may not
// see it. The appliance fetches no tracker (it is air-gapped): an issue has no state, summary or
// owner, as OBS's have before their first fetch, so a filter on state or owner keeps none.

// IssueView is an issue as the API renders it: the record, its label and page from its tracker,
// its owner's person record when it has one, and for a package's issue how the package names it
// (a buildstore.Issue* change; "" for an attribute's issue and in a search).
type IssueView struct {
	buildstore.Issue
	Label string
	URL   string
	// OwnerPerson is the person Issue.Owner names, when it names one.
	OwnerPerson *buildstore.Person
	Change      string
}

// IssueViewer renders issues with the trackers read once.
type IssueViewer struct {
	tx       kv.Tx
	trackers map[string]buildstore.IssueTracker
}

func NewIssueViewer(tx kv.Tx) (IssueViewer, error) {
	list, err := buildstore.Trackers(tx)
	v := IssueViewer{tx: tx, trackers: map[string]buildstore.IssueTracker{}}
	for _, t := range list {
		v.trackers[t.Name] = t
	}
	return v, err
}

// View is issue i as a reader sees it, with change naming how it came or went ("" for none).
func (v IssueViewer) View(i buildstore.Issue, change string) IssueView {
	t := v.trackers[i.Tracker]
	out := IssueView{Issue: i, Label: t.LabelFor(i.Name), URL: t.ShowURLFor(i.Name), Change: change}
	if i.Owner != "" {
		if p, err := buildstore.GetPerson(v.tx, i.Owner); err == nil {
			out.OwnerPerson = &p
		}
	}
	return out
}

// issue is the record of tracker's issue name; a link to a record that is gone (it cannot be,
// the index and the records move together) shows the names alone.
func (v IssueViewer) issue(tracker, name, change string) IssueView {
	i, err := buildstore.GetIssue(v.tx, tracker, name)
	if err != nil {
		i = buildstore.Issue{Tracker: tracker, Name: name}
	}
	return v.View(i, change)
}

// IssueFilter is ?view=issues' filters (OBS's states=, changes=, login=): each, when set, keeps
// only the issues with a state, a change or an owner it lists — an issue without one is left
// out, so on the appliance a states or login filter keeps none.
type IssueFilter struct {
	States  []string // nil: any
	Changes []string // nil: any
	Login   string   // "": any
}

func (f IssueFilter) keeps(v IssueView) bool {
	switch {
	case f.Changes != nil && (v.Change == "" || !slices.Contains(f.Changes, v.Change)):
		return false
	case f.States != nil && (v.State == "" || !slices.Contains(f.States, v.State)):
		return false
	case f.Login != "" && (v.OwnerPerson == nil || v.OwnerPerson.Login != f.Login):
		return false
	}
	return true
}

// PackageIssues is a package's issues as ?view=issues lists them.
type PackageIssues struct {
	Project string
	Package string
	// Kinds are OBS's package kinds (patchinfo, aggregate, link, channel, product) its newest
	// tree makes it; only the package view shows them.
	Kinds  []string
	Issues []IssueView
}

// PackageIssueList answers GET /source/P/K?view=issues: the issues the package's newest
// sources name (with their change), then those its attributes carry (OBS adds them there and
// not in the project view), filtered by f.
func (s *Service) PackageIssueList(who buildstore.Person, project, pkg string, f IssueFilter) (PackageIssues, error) {
	out := PackageIssues{Project: project, Package: pkg}
	err := s.db.View(func(tx kv.Tx) error {
		if err := VisibleProject(tx, who, project); err != nil {
			return err
		}
		if _, _, err := LookupPackage(tx, project, pkg); err != nil {
			return err
		}
		v, err := NewIssueViewer(tx)
		if err != nil {
			return err
		}
		if out.Issues, err = packageIssues(tx, v, project, pkg, f); err != nil {
			return err
		}
		if last, ok, err := buildstore.LatestRevision(tx, project, pkg); err != nil {
			return err
		} else if ok {
			out.Kinds = packageKinds(last.Files)
		}
		attrs, err := buildstore.Attributes(tx, project, pkg)
		if err != nil {
			return err
		}
		for _, a := range attrs {
			if a.Binary != "" {
				continue
			}
			for _, i := range a.Issues {
				if iv := v.issue(i.Tracker, i.Name, ""); f.keeps(iv) {
					out.Issues = append(out.Issues, iv)
				}
			}
		}
		return nil
	})
	return out, err
}

// ProjectIssueList answers GET /source/P?view=issues: each live package of the project, by
// name, with the issues its sources name, filtered by f.
func (s *Service) ProjectIssueList(who buildstore.Person, project string, f IssueFilter) ([]PackageIssues, error) {
	var out []PackageIssues
	err := s.db.View(func(tx kv.Tx) error {
		out = nil
		if err := VisibleProject(tx, who, project); err != nil {
			return err
		}
		if err := buildstore.CheckProject(tx, project); err != nil {
			return NotFoundAs(err, "unknown_project")
		}
		v, err := NewIssueViewer(tx)
		if err != nil {
			return err
		}
		names, err := buildstore.PackageNames(tx, project, false)
		if err != nil {
			return err
		}
		for _, name := range names {
			list, err := packageIssues(tx, v, project, name, f)
			if err != nil {
				return err
			}
			out = append(out, PackageIssues{Project: project, Package: name, Issues: list})
		}
		return nil
	})
	return out, err
}

// packageIssues lists the issues project/pkg's sources name that f keeps, by tracker and name.
func packageIssues(tx kv.Tx, v IssueViewer, project, pkg string, f IssueFilter) ([]IssueView, error) {
	list, err := buildstore.PackageIssues(tx, project, pkg)
	var out []IssueView
	for _, i := range list {
		if iv := v.issue(i.Tracker, i.Name, i.Change); f.keeps(iv) {
			out = append(out, iv)
		}
	}
	return out, err
}

// packageKinds are OBS's kinds of a tree, in the order of the files that make them.
func packageKinds(files []buildstore.FileEntry) []string {
	var kinds []string
	for _, f := range files {
		kind := ""
		switch {
		case f.Name == "_patchinfo", f.Name == "_aggregate", f.Name == "_link", f.Name == "_channel":
			kind = f.Name[1:]
		case strings.HasSuffix(f.Name, ".product"):
			kind = "product"
		}
		if kind != "" && !slices.Contains(kinds, kind) {
			kinds = append(kinds, kind)
		}
	}
	return kinds
}

// The package search's issue keys (issue/@name, @tracker, @state, @change, owner/…), which
// OBS answers from its package_issues join: a predicate that reads one is evaluated on the
// package's meta with an <issue> element for each issue its sources name.
