package buildstore

import (
	"strings"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TrackerKinds are the kinds of issue tracker the service knows.
var TrackerKinds = []string{"other", "bugzilla", "cve", "fate", "trac", "launchpad", "sourceforge", "github", "gitlab", "jira", "giteaforge"}

// IssueTracker is an external bug tracker: Regex finds its issues in text (its first group is
// the issue id), ShowURL is the issue's page with @@@ standing for the id, Label writes one.
type IssueTracker struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Description string `json:"description"`
	URL         string `json:"url"`
	ShowURL     string `json:"show_url"`
	Regex       string `json:"regex"`
	Label       string `json:"label"`
	EnableFetch bool   `json:"enable_fetch"`
}

// GetTracker returns the tracker called name.
func GetTracker(tx kv.Tx, name string) (IssueTracker, error) {
	t, err := store.Get[IssueTracker](tx, store.BuildTrackers, []byte(name))
	if err != nil {
		return t, store.NotFoundf("Couldn't find IssueTracker with name = %s", name)
	}
	return t, nil
}

// PutTracker creates or replaces a tracker.
func PutTracker(tx kv.Tx, t IssueTracker) error {
	return store.Put(tx, store.BuildTrackers, []byte(t.Name), t)
}

// DeleteTracker removes a tracker with its issues (issues.go).
func DeleteTracker(tx kv.Tx, name string) error {
	if err := store.Delete(tx, store.BuildTrackers, []byte(name)); err != nil {
		return store.NotFoundf("Couldn't find IssueTracker with name = %s", name)
	}
	return deleteTrackerIssues(tx, name)
}

// LabelFor is how the tracker writes issue id ("pocket#12"): its label with @@@ replaced.
func (t IssueTracker) LabelFor(id string) string { return strings.ReplaceAll(t.Label, "@@@", id) }

// ShowURLFor is the page of issue id: the show-url with @@@ replaced by it; a GitHub-style id
// "owner/repo#12" becomes "owner/repo/issues/12" first, the page GitHub (GitLab, Gitea) has.
func (t IssueTracker) ShowURLFor(id string) string {
	if t.Kind == "github" || t.Kind == "gitlab" || t.Kind == "giteaforge" {
		id = strings.Replace(id, "#", "/issues/", 1)
	}
	return strings.ReplaceAll(t.ShowURL, "@@@", id)
}

// Trackers lists every tracker by name.
func Trackers(tx kv.Tx) ([]IssueTracker, error) {
	var out []IssueTracker
	err := store.Each(tx, store.BuildTrackers, nil, func(_ []byte, t IssueTracker) (bool, error) {
		out = append(out, t)
		return true, nil
	})
	return out, err
}
