package buildsvc

import (
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// cmd=diff&view=xml: the backend's <sourcediff>, the diff as data (both sides' revisions, each
// changed file's entries and hunks) with, on request, the issues the change adds, changes or
// drops in the .changes files — what OBS's web UI shows beside a request.

// StructuredDiff is the content of a <sourcediff>.
type StructuredDiff struct {
	Old, New DiffSide
	Files    []FileDiff
	// Issues are the issues whose mentions differ between the sides (kept ones are left out),
	// by tracker and name; filled only when asked for.
	Issues []IssueChange
}

// DiffSide names one side: the package and its revision.
type DiffSide struct {
	Project, Package, Rev, SrcMD5 string
}

// IssueChange is an issue the change adds, changes or deletes, with its tracker's label and URL.
type IssueChange struct {
	State, Tracker, Name, Label, URL string
}

// StructuredDiff is Diff as data; withIssues also compares the issues the sides' .changes files
// (or _patchinfo) name.
func (s *Service) StructuredDiff(who buildstore.Person, project, pkg string, o DiffOptions, withIssues bool) (StructuredDiff, error) {
	var d StructuredDiff
	err := s.diffViews(who, project, pkg, o, func(tx kv.Tx, oldView, newView SourceView) (err error) {
		d.Old = DiffSide{Project: o.OldProject, Package: o.OldPackage, Rev: revLabel(oldView.Tree), SrcMD5: oldView.Tree.SrcMD5}
		d.New = DiffSide{Project: project, Package: pkg, Rev: revLabel(newView.Tree), SrcMD5: newView.Tree.SrcMD5}
		if d.Files, err = fileDiffs(tx, oldView, newView); err != nil || !withIssues {
			return err
		}
		d.Issues, err = issueDiff(tx, oldView, newView)
		return err
	})
	return d, err
}

// issueDiff compares the issues the two trees' .changes files mention.
func issueDiff(tx kv.Tx, oldView, newView SourceView) ([]IssueChange, error) {
	trackers, err := buildstore.Trackers(tx)
	if err != nil || len(trackers) == 0 {
		return nil, err
	}
	matchers := issueMatchers(trackers)
	mine, err := changesMentions(matchers, newView.Tree.Files, func(md5 string) ([]byte, error) { return newView.Content(tx, md5) })
	if err != nil {
		return nil, err
	}
	theirs, err := changesMentions(matchers, oldView.Tree.Files, func(md5 string) ([]byte, error) { return oldView.Content(tx, md5) })
	if err != nil {
		return nil, err
	}
	byName := map[string]buildstore.IssueTracker{}
	for _, t := range trackers {
		byName[t.Name] = t
	}
	var out []IssueChange
	for _, i := range mine.issues(theirs) {
		if i.Change == buildstore.IssueKept {
			continue
		}
		t := byName[i.Tracker]
		out = append(out, IssueChange{State: i.Change, Tracker: i.Tracker, Name: i.Name, Label: t.LabelFor(i.Name), URL: t.ShowURLFor(i.Name)})
	}
	return out, nil
}
