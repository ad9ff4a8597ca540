package buildsvc

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Where a package's issues come from, as OBS's backend reads them on every source change:
//
//   - a patchinfo (a tree with _patchinfo) names the issues of its <issue tracker= id=>
//     elements, each kept; issues of trackers that do not exist are left out, as OBS ignores
//     them;
//   - any other tree names the issues its *.changes files mention, found with every tracker's
//     regex line by line (the id is the first group, else the whole match), each kept;
//   - a link (a plain link or a branch) is read in its expanded tree, against its link target
//     at the link's baserev (OBS's linkrev=base; the newest target when the link has no
//     baserev or does not expand there): an issue only the link's expansion mentions is added,
//     one only the target mentions deleted, one both mention on different lines changed, one
//     both mention on the same lines kept. A link that does not expand names none (OBS's
//     backend diff fails then too).
//
// Simplified: a link's issues are computed when the link gets a revision; a later commit of its
// target does not recompute them (OBS too reads them when the package's own sources change).
// A tracker whose regex Go cannot compile finds nothing.
//
// The store keeps the issue records and the index of which package names which
// (buildstore/issues.go); the scan is the rule, so it is here: every commit indexes the issues
// of its new tree (CommitRevision), and the migration that introduced the index fills it with
// this scan (the index builder registered below).

func init() {
	store.RegisterIndexBuilder(store.BuildIssueIndex, func(tx kv.Tx) error {
		return buildstore.RebuildIssueIndex(tx, RevisionIssues)
	})
}

// indexRevisionIssues makes the issues r names those of project/pkg, when a live package has
// the name (a commit to a pseudo package such as _project names none): the step a commit ends
// with, so the index moves with every revision, in its transaction.
func indexRevisionIssues(tx kv.Tx, project, pkg string, r buildstore.Revision, now time.Time) error {
	if _, err := buildstore.GetPackage(tx, project, pkg); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		return err
	}
	list, err := RevisionIssues(tx, project, pkg, r)
	if err != nil {
		return err
	}
	return buildstore.SetPackageIssues(tx, project, pkg, list, now)
}

// issueMatcher is one tracker's compiled regex.
type issueMatcher struct {
	tracker string
	re      *regexp.Regexp
}

func issueMatchers(trackers []buildstore.IssueTracker) []issueMatcher {
	var out []issueMatcher
	for _, t := range trackers {
		if t.Regex == "" {
			continue
		}
		if re, err := regexp.Compile(t.Regex); err == nil {
			out = append(out, issueMatcher{tracker: t.Name, re: re})
		}
	}
	return out
}

// issueRef names an issue.
type issueRef struct{ tracker, name string }

// mentions maps each issue a text mentions to the lines that mention it.
type mentions map[issueRef]map[string]bool

// scan adds the mentions of text's lines.
func (m mentions) scan(matchers []issueMatcher, text []byte) {
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		for _, t := range matchers {
			for _, g := range t.re.FindAllStringSubmatch(line, -1) {
				id := g[0]
				if len(g) > 1 && g[1] != "" {
					id = g[1]
				}
				ref := issueRef{t.tracker, id}
				if m[ref] == nil {
					m[ref] = map[string]bool{}
				}
				m[ref][line] = true
			}
		}
	}
}

// changesMentions scans the *.changes files of files, reading content with read.
func changesMentions(matchers []issueMatcher, files []buildstore.FileEntry, read func(md5 string) ([]byte, error)) (mentions, error) {
	m := mentions{}
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".changes") {
			continue
		}
		data, err := read(f.MD5)
		if err != nil {
			return nil, err
		}
		m.scan(matchers, data)
	}
	return m, nil
}

// RevisionIssues lists the issues tree r of project/pkg names, by tracker and name (see the
// comment above).
func RevisionIssues(tx kv.Tx, project, pkg string, r buildstore.Revision) ([]buildstore.PackageIssue, error) {
	trackers, err := buildstore.Trackers(tx)
	if err != nil || len(trackers) == 0 {
		return nil, err
	}
	if pi, ok := r.File("_patchinfo"); ok {
		return patchinfoIssues(tx, trackers, pi)
	}
	matchers := issueMatchers(trackers)
	read := func(md5 string) ([]byte, error) { return buildstore.GetBlob(tx, md5) }
	if _, ok := r.File(buildstore.LinkFile); !ok {
		m, err := changesMentions(matchers, r.Files, read)
		return m.issues(nil), err
	}
	for _, linkrev := range []string{"base", ""} {
		e, _, err := Expand(tx, project, pkg, r, linkrev)
		if err != nil {
			return nil, err
		}
		if e.Info.Error != "" {
			continue
		}
		mine, err := changesMentions(matchers, e.Files, func(md5 string) ([]byte, error) { return e.Content(tx, md5) })
		if err != nil {
			return nil, err
		}
		var scratch buildstore.Expansion
		target, msg, err := targetTree(tx, project, pkg, r, linkrev, &scratch)
		if err != nil || msg != "" {
			return nil, err
		}
		theirs, err := changesMentions(matchers, target.Files, func(md5 string) ([]byte, error) { return scratch.Content(tx, md5) })
		if err != nil {
			return nil, err
		}
		return mine.issues(theirs), nil
	}
	return nil, nil
}

// issues lists the issues of m, by tracker and name; with base (a link's target) each gets
// its change relative to it, without it each is kept.
func (m mentions) issues(base mentions) []buildstore.PackageIssue {
	var out []buildstore.PackageIssue
	for ref, lines := range m {
		change := buildstore.IssueKept
		if base != nil {
			switch had, ok := base[ref]; {
			case !ok:
				change = buildstore.IssueAdded
			case !sameLines(had, lines):
				change = buildstore.IssueChanged
			}
		}
		out = append(out, buildstore.PackageIssue{Tracker: ref.tracker, Name: ref.name, Change: change})
	}
	for ref := range base {
		if _, ok := m[ref]; !ok {
			out = append(out, buildstore.PackageIssue{Tracker: ref.tracker, Name: ref.name, Change: buildstore.IssueDeleted})
		}
	}
	slices.SortFunc(out, func(a, b buildstore.PackageIssue) int {
		if c := strings.Compare(a.Tracker, b.Tracker); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

func sameLines(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for l := range a {
		if !b[l] {
			return false
		}
	}
	return true
}

// patchinfoIssues reads the <issue tracker= id=> elements of a _patchinfo: each kept, those of
// unknown trackers left out. A _patchinfo that does not parse names none.
func patchinfoIssues(tx kv.Tx, trackers []buildstore.IssueTracker, f buildstore.FileEntry) ([]buildstore.PackageIssue, error) {
	data, err := buildstore.GetBlob(tx, f.MD5)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Issues []struct {
			Tracker string `xml:"tracker,attr"`
			ID      string `xml:"id,attr"`
		} `xml:"issue"`
	}
	if xml.Unmarshal(data, &doc) != nil {
		return nil, nil
	}
	known := map[string]bool{}
	for _, t := range trackers {
		known[t.Name] = true
	}
	var out []buildstore.PackageIssue
	seen := map[issueRef]bool{}
	for _, i := range doc.Issues {
		ref := issueRef{i.Tracker, i.ID}
		if known[i.Tracker] && i.ID != "" && !seen[ref] {
			seen[ref] = true
			out = append(out, buildstore.PackageIssue{Tracker: i.Tracker, Name: i.ID, Change: buildstore.IssueKept})
		}
	}
	slices.SortFunc(out, func(a, b buildstore.PackageIssue) int {
		if c := strings.Compare(a.Tracker, b.Tracker); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

// targetTree is the tree link tree r of project/pkg expands against with linkrev, the
// contents its own expansion made kept in e.
func targetTree(tx kv.Tx, project, pkg string, r buildstore.Revision, linkrev string, e *buildstore.Expansion) (buildstore.Revision, string, error) {
	lf, _ := r.File(buildstore.LinkFile)
	data, err := buildstore.GetBlob(tx, lf.MD5)
	if err != nil {
		return buildstore.Revision{}, "", err
	}
	l, err := buildstore.ParseLink(data)
	if err != nil {
		return buildstore.Revision{}, err.Error(), nil
	}
	return linkTreeOf(tx, project, pkg, l, linkrev, e)
}
