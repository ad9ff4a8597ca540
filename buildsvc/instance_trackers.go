package buildsvc

import (
	"regexp"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Issue trackers let changes and requests mention issues ("pocket#123"); IssueURL turns such a
// mention into the issue's page. Admin maintains them.

// Trackers lists the issue trackers by name, the order in which IssueURL tries them, so the
// first tracker whose pattern takes a mention decides its page.
func (s *Service) Trackers() ([]buildstore.IssueTracker, error) {
	return ViewOne(s, buildstore.Trackers)
}

// Tracker reads one issue tracker.
func (s *Service) Tracker(name string) (buildstore.IssueTracker, error) {
	return viewNamed(s, buildstore.GetTracker, name)
}

// IssueURL is the page of an issue mention: the first tracker (by name) whose regex matches the
// whole mention gives the id (its first group, else the whole mention), which replaces @@@ in
// its show-url. GitHub-style ids "owner/repo#12" become "owner/repo/issues/12", the page GitHub
// has for them.
func (s *Service) IssueURL(issue string) (string, error) {
	if issue == "" {
		return "", BadRequest("missing_parameter", "show_url_for needs the parameter issue (e.g. pocket#123)")
	}
	list, err := s.Trackers()
	if err != nil {
		return "", err
	}
	for _, t := range list {
		re, err := regexp.Compile(`^(?:` + t.Regex + `)$`)
		if err != nil {
			continue
		}
		m := re.FindStringSubmatch(issue)
		if m == nil {
			continue
		}
		id := m[len(m)-1]
		if len(m) > 1 {
			id = m[1]
		}
		return t.ShowURLFor(id), nil
	}
	return "", fault.NotFound("issue_tracker_not_found", "No issue tracker knows the issue '%s'", issue)
}

// checkTracker: a known kind, and a regex that compiles (IssueURL runs it) with a show-url
// holding @@@ to place the issue id.
func checkTracker(t buildstore.IssueTracker) error {
	if !slices.Contains(buildstore.TrackerKinds, t.Kind) {
		return Invalid("issue tracker", "unknown kind '%s' (one of %s)", t.Kind, strings.Join(buildstore.TrackerKinds, ", "))
	}
	if t.URL == "" || !strings.Contains(t.ShowURL, "@@@") || t.Regex == "" {
		return Invalid("issue tracker", "url, regex and a show-url containing @@@ are required")
	}
	if _, err := regexp.Compile(t.Regex); err != nil {
		return Invalid("issue tracker", "regex: %v", err)
	}
	return nil
}

// PutTracker creates or replaces the tracker name (Admin) with t; t without a name is the
// URL's. decodeErr is what the handler found wrong with the document.
func (s *Service) PutTracker(who buildstore.Person, name string, t buildstore.IssueTracker, decodeErr error) error {
	check := func() error {
		if err := urlKey(&t.Name, name, "name_mismatch", "name"); err != nil {
			return err
		}
		return checkTracker(t)
	}
	return s.writeInstance(who, "change issue trackers", decodeErr, check,
		func(tx kv.Tx) error { return PutTrackerTx(tx, who, name, t) })
}

// PutTrackerTx is PutTracker of a decoded tracker inside the caller's transaction (the
// fixtures add the demo trackers in theirs).
func PutTrackerTx(tx kv.Tx, who buildstore.Person, name string, t buildstore.IssueTracker) error {
	if err := AdminOnly(who, "change issue trackers"); err != nil {
		return err
	}
	if err := urlKey(&t.Name, name, "name_mismatch", "name"); err != nil {
		return err
	}
	if err := checkTracker(t); err != nil {
		return err
	}
	return buildstore.PutTracker(tx, t)
}

// DeleteTracker removes a tracker (Admin).
func (s *Service) DeleteTracker(who buildstore.Person, name string) error {
	return s.writeInstance(who, "delete issue trackers", nil, nil,
		func(tx kv.Tx) error { return buildstore.DeleteTracker(tx, name) })
}
