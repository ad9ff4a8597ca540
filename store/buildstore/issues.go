package buildstore

import (
	"bytes"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Issues are OBS's issues table: every issue of a tracker that a package's sources (buildsvc's
// issues_scan.go reads them), a patchinfo or an attribute named, kept under tracker 0x00 name
// (store.BuildIssues). OBS fills State, Summary and Owner by fetching the tracker (bugzilla's
// XML-RPC, a CVE feed) after an issue is created; the appliance is air-gapped and fetches
// nothing, so they stay unset, as OBS has them before its first fetch — GET answers no <state>,
// and a search for @state='OPEN' finds nothing. A record outlives the packages that named it,
// as in OBS; deleting its tracker deletes it.
//
// The issue index (store.BuildIssueIndex) links packages to the issues their newest sources
// name, both ways, so a package's issues and an issue's packages are one seek each: key "p"
// 0x00 project 0x00 package 0x00 tracker 0x00 name, and "i" 0x00 tracker 0x00 name 0x00 project
// 0x00 package, each with the change as value. The build domain's commit replaces a package's
// entries (SetPackageIssues) in the commit's transaction; putPackageRecord (a tombstone) and
// PurgePackage drop them.

// Issue states as OBS names them; a record here has none (see above).
const (
	IssueOpen    = "OPEN"
	IssueClosed  = "CLOSED"
	IssueUnknown = "UNKNOWN"
)

// How a package's sources name an issue (OBS's package_issues change): kept for an issue a
// package mentions by itself; for a link, relative to the tree it links to (buildsvc's
// issues_scan.go).
const (
	IssueKept    = "kept"
	IssueAdded   = "added"
	IssueDeleted = "deleted"
	IssueChanged = "changed"
)

// Issue is one issue of a tracker.
type Issue struct {
	Tracker string `json:"tracker"`
	Name    string `json:"name"`
	// State, Summary and Owner (a login) are what a tracker fetch fills; never set here.
	State   string    `json:"state,omitempty"`
	Summary string    `json:"summary,omitempty"`
	Owner   string    `json:"owner,omitempty"`
	Created time.Time `json:"created_at"`
	Updated time.Time `json:"updated_at"`
}

// PackageIssue is an issue a package's sources name, and how (one of the Issue* changes).
type PackageIssue struct {
	Tracker string
	Name    string
	Change  string
}

// IssuePlace is a package that names an issue, and how.
type IssuePlace struct {
	Project string
	Package string
	Change  string
}

func issueKey(tracker, name string) []byte { return []byte(tracker + sep + name) }

// validIssue reports whether tracker and name can be key parts.
func validIssue(tracker, name string) bool {
	return tracker != "" && name != "" && !strings.Contains(tracker, sep) && !strings.Contains(name, sep)
}

// GetIssue returns the issue name of tracker.
func GetIssue(tx kv.Tx, tracker, name string) (Issue, error) {
	i, err := store.Get[Issue](tx, store.BuildIssues, issueKey(tracker, name))
	if err != nil {
		return i, store.NotFoundf("Issue not found: %s#%s", tracker, name)
	}
	return i, nil
}

// EachIssue calls fn with every issue, by tracker and name, or only tracker's when tracker is
// not "", until fn returns false.
func EachIssue(tx kv.Tx, tracker string, fn func(Issue) (bool, error)) error {
	var prefix []byte
	if tracker != "" {
		prefix = []byte(tracker + sep)
	}
	return store.Each(tx, store.BuildIssues, prefix, func(_ []byte, i Issue) (bool, error) { return fn(i) })
}

// NoteIssue creates the record of issue name of tracker at now unless it exists, as OBS's
// find_or_create does when sources, a patchinfo or an attribute name an issue.
func NoteIssue(tx kv.Tx, tracker, name string, now time.Time) error {
	if !validIssue(tracker, name) {
		return nil
	}
	b, err := store.Bucket(tx, store.BuildIssues)
	if err != nil {
		return err
	}
	if b.Get(issueKey(tracker, name)) != nil {
		return nil
	}
	now = now.UTC().Truncate(time.Second)
	return store.Put(tx, store.BuildIssues, issueKey(tracker, name), Issue{Tracker: tracker, Name: name, Created: now, Updated: now})
}

func packageIssuePrefix(project, pkg string) []byte {
	return []byte("p" + sep + project + sep + pkg + sep)
}

func issuePackagePrefix(tracker, name string) []byte {
	return []byte("i" + sep + tracker + sep + name + sep)
}

// PackageIssues lists the issues the newest sources of project/pkg name, by tracker and name.
func PackageIssues(tx kv.Tx, project, pkg string) ([]PackageIssue, error) {
	b, err := store.Bucket(tx, store.BuildIssueIndex)
	if err != nil {
		return nil, err
	}
	prefix := packageIssuePrefix(project, pkg)
	var out []PackageIssue
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if tracker, name, ok := strings.Cut(string(k[len(prefix):]), sep); ok {
			out = append(out, PackageIssue{Tracker: tracker, Name: name, Change: string(v)})
		}
	}
	return out, nil
}

// IssuePackages lists the live packages whose newest sources name issue name of tracker, by
// project and package.
func IssuePackages(tx kv.Tx, tracker, name string) ([]IssuePlace, error) {
	b, err := store.Bucket(tx, store.BuildIssueIndex)
	if err != nil {
		return nil, err
	}
	prefix := issuePackagePrefix(tracker, name)
	var out []IssuePlace
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if project, pkg, ok := strings.Cut(string(k[len(prefix):]), sep); ok {
			out = append(out, IssuePlace{Project: project, Package: pkg, Change: string(v)})
		}
	}
	return out, nil
}

// SetPackageIssues makes list the issues of project/pkg in the index, creating the records
// of new issues at now. A commit sets them from its new tree (buildsvc's issues_scan.go).
func SetPackageIssues(tx kv.Tx, project, pkg string, list []PackageIssue, now time.Time) error {
	if err := dropPackageIssues(tx, project, pkg); err != nil {
		return err
	}
	b, err := store.Bucket(tx, store.BuildIssueIndex)
	if err != nil {
		return err
	}
	for _, i := range list {
		if !validIssue(i.Tracker, i.Name) {
			continue
		}
		if err := NoteIssue(tx, i.Tracker, i.Name, now); err != nil {
			return err
		}
		if err := b.Put(append(packageIssuePrefix(project, pkg), i.Tracker+sep+i.Name...), []byte(i.Change)); err != nil {
			return err
		}
		if err := b.Put(append(issuePackagePrefix(i.Tracker, i.Name), project+sep+pkg...), []byte(i.Change)); err != nil {
			return err
		}
	}
	return nil
}

// dropPackageIssues removes project/pkg from the index (both directions).
func dropPackageIssues(tx kv.Tx, project, pkg string) error {
	old, err := PackageIssues(tx, project, pkg)
	if err != nil || len(old) == 0 {
		return err
	}
	b, err := store.Bucket(tx, store.BuildIssueIndex)
	if err != nil {
		return err
	}
	for _, i := range old {
		if err := b.Delete(append(issuePackagePrefix(i.Tracker, i.Name), project+sep+pkg...)); err != nil {
			return err
		}
	}
	return store.DeletePrefix(tx, store.BuildIssueIndex, packageIssuePrefix(project, pkg))
}

// deleteTrackerIssues removes the issues of tracker and their links, as OBS's tracker delete
// destroys its issues: nothing could render them (their label and url are the tracker's).
func deleteTrackerIssues(tx kv.Tx, tracker string) error {
	b, err := store.Bucket(tx, store.BuildIssueIndex)
	if err != nil {
		return err
	}
	prefix := []byte("i" + sep + tracker + sep)
	var doomed [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		parts := strings.SplitN(string(k[len(prefix):]), sep, 3) // name, project, package
		if len(parts) == 3 {
			doomed = append(doomed, append(packageIssuePrefix(parts[1], parts[2]), tracker+sep+parts[0]...))
		}
	}
	for _, k := range doomed {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	if err := store.DeletePrefix(tx, store.BuildIssueIndex, prefix); err != nil {
		return err
	}
	return store.DeletePrefix(tx, store.BuildIssues, []byte(tracker+sep))
}

// RebuildIssueIndex fills the empty issue index from the newest revision of every live package,
// whose issues scan lists, and creates the issue records it and the attribute values name (the
// migration that introduced them). A record made here is dated by what named it first here: the
// revision's time, or for an attribute's issue its package's or project's creation. Which
// issues a tree names is the build domain's rule: buildsvc registers the index's builder with
// its scan (issues_scan.go).
func RebuildIssueIndex(tx kv.Tx, scan func(tx kv.Tx, project, pkg string, r Revision) ([]PackageIssue, error)) error {
	if _, err := tx.CreateBucketIfNotExists([]byte(store.BuildIssues)); err != nil {
		return err
	}
	for _, name := range []string{store.BuildPackages, store.BuildRevisions, store.BuildTrackers} {
		if tx.Bucket([]byte(name)) == nil {
			return nil // a file without build records has nothing to index
		}
	}
	var live []Package
	if err := store.Each(tx, store.BuildPackages, nil, func(_ []byte, k Package) (bool, error) {
		if !k.Deleted {
			live = append(live, k)
		}
		return true, nil
	}); err != nil {
		return err
	}
	for _, k := range live {
		r, ok, err := LatestRevision(tx, k.Project, k.Name)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		list, err := scan(tx, k.Project, k.Name, r)
		if err != nil {
			return err
		}
		if err := SetPackageIssues(tx, k.Project, k.Name, list, time.Unix(r.Time, 0)); err != nil {
			return err
		}
	}
	if tx.Bucket([]byte(store.BuildAttributes)) == nil {
		return nil
	}
	var attrs []Attribute
	if err := store.Each(tx, store.BuildAttributes, nil, func(_ []byte, a Attribute) (bool, error) {
		if len(a.Issues) > 0 {
			attrs = append(attrs, a)
		}
		return true, nil
	}); err != nil {
		return err
	}
	for _, a := range attrs {
		var created time.Time
		if k, err := GetPackage(tx, a.Project, a.Package); err == nil && a.Package != "" {
			created = k.Created
		} else if p, err := GetProject(tx, a.Project); err == nil {
			created = p.Created
		}
		if err := NoteAttributeIssues(tx, a, created); err != nil {
			return err
		}
	}
	return nil
}

// NoteAttributeIssues creates the records of the issues attribute a names (at now), as OBS's
// attribute update does; the attribute keeps its own list.
func NoteAttributeIssues(tx kv.Tx, a Attribute, now time.Time) error {
	for _, i := range a.Issues {
		if err := NoteIssue(tx, i.Tracker, i.Name, now); err != nil {
			return err
		}
	}
	return nil
}
