package buildapi

import (
	"encoding/xml"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// Issue trackers let changes and requests mention issues ("pocket#123"); show_url_for turns
// such a mention into the issue's page.

type trackerXML struct {
	XMLName     xml.Name `xml:"issue-tracker"`
	Name        string   `xml:"name"`
	Kind        string   `xml:"kind"`
	Description string   `xml:"description"`
	URL         string   `xml:"url"`
	ShowURL     string   `xml:"show-url"`
	Regex       string   `xml:"regex"`
	Label       string   `xml:"label"`
	EnableFetch bool     `xml:"enable-fetch"`
}

type trackersXML struct {
	XMLName  xml.Name     `xml:"issue-trackers"`
	Trackers []trackerXML `xml:"issue-tracker"`
}

func trackerDoc(t buildstore.IssueTracker) trackerXML {
	return trackerXML{Name: t.Name, Kind: t.Kind, Description: t.Description, URL: t.URL, ShowURL: t.ShowURL,
		Regex: t.Regex, Label: t.Label, EnableFetch: t.EnableFetch}
}

func trackerRecord(d trackerXML) buildstore.IssueTracker {
	return buildstore.IssueTracker{Name: d.Name, Kind: d.Kind, Description: d.Description, URL: d.URL, ShowURL: d.ShowURL,
		Regex: d.Regex, Label: d.Label, EnableFetch: d.EnableFetch}
}

func (a *api) listTrackers(c *fiber.Ctx) error {
	var list []buildstore.IssueTracker
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) { list, err = buildstore.Trackers(tx); return }); err != nil {
		return err
	}
	doc := trackersXML{}
	for _, t := range list {
		doc.Trackers = append(doc.Trackers, trackerDoc(t))
	}
	return sendXML(c, doc)
}

func (a *api) getTracker(c *fiber.Ctx) error {
	var t buildstore.IssueTracker
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) { t, err = buildstore.GetTracker(tx, pathParam(c, "name")); return }); err != nil {
		return err
	}
	return sendXML(c, trackerDoc(t))
}

// putTracker creates or replaces a tracker (Admin) for both PUT and POST: osc and scripts use
// either, and an upsert answers both the same way. The regex must compile, since show_url_for
// runs it; the show-url needs @@@ to place the issue id.
func (a *api) putTracker(c *fiber.Ctx) error {
	name := pathParam(c, "name")
	if err := adminOnly(personOf(c), "change issue trackers"); err != nil {
		return err
	}
	var d trackerXML
	if err := parseMeta(c.Body(), &d, "issue tracker"); err != nil {
		return err
	}
	if d.Name == "" {
		d.Name = name
	}
	if d.Name != name {
		return buildsvc.BadRequest("name_mismatch", "name in xml data ('%s') does not match resource path component ('%s')", d.Name, name)
	}
	if !slices.Contains(buildstore.TrackerKinds, d.Kind) {
		return buildsvc.Invalid("issue tracker", "unknown kind '%s' (one of %s)", d.Kind, strings.Join(buildstore.TrackerKinds, ", "))
	}
	if d.URL == "" || !strings.Contains(d.ShowURL, "@@@") || d.Regex == "" {
		return buildsvc.Invalid("issue tracker", "url, regex and a show-url containing @@@ are required")
	}
	if _, err := regexp.Compile(d.Regex); err != nil {
		return buildsvc.Invalid("issue tracker", "regex: %v", err)
	}
	if err := a.Store.Write(func(tx *bbolt.Tx) error { return buildstore.PutTracker(tx, trackerRecord(d)) }); err != nil {
		return err
	}
	return sendOK(c)
}

func (a *api) deleteTracker(c *fiber.Ctx) error {
	if err := adminOnly(personOf(c), "delete issue trackers"); err != nil {
		return err
	}
	if err := a.Store.Write(func(tx *bbolt.Tx) error { return buildstore.DeleteTracker(tx, pathParam(c, "name")) }); err != nil {
		return err
	}
	return sendOK(c)
}

// showURLFor answers the page of ?issue= as plain text: the first tracker (by name) whose
// regex matches the whole mention gives the id (its first group, else the whole mention),
// which replaces @@@ in its show-url. GitHub-style ids "owner/repo#12" become
// "owner/repo/issues/12", the page GitHub has for them.
func (a *api) showURLFor(c *fiber.Ctx) error {
	issue := c.Query("issue")
	if issue == "" {
		return buildsvc.BadRequest("missing_parameter", "show_url_for needs the parameter issue (e.g. pocket#123)")
	}
	var list []buildstore.IssueTracker
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) { list, err = buildstore.Trackers(tx); return }); err != nil {
		return err
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
		if t.Kind == "github" || t.Kind == "gitlab" || t.Kind == "giteaforge" {
			id = strings.Replace(id, "#", "/issues/", 1)
		}
		c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
		return c.SendString(strings.ReplaceAll(t.ShowURL, "@@@", id))
	}
	return &kit.Error{Status: http.StatusNotFound, Code: "issue_tracker_not_found", Reason: "No issue tracker knows the issue '" + issue + "'"}
}
