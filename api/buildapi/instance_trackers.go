package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/buildstore"
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

func trackersDoc(list []buildstore.IssueTracker) trackersXML {
	return trackersXML{Trackers: docsOf(list, trackerDoc)}
}

// putTracker creates or replaces a tracker (Admin) for both PUT and POST: osc and scripts use
// either, and an upsert answers both the same way.
func (a *api) putTracker(c *fiber.Ctx) error {
	var d trackerXML
	err := parseMeta(c.Body(), &d, "issue tracker")
	return replyOK(c, a.Svc.PutTracker(personOf(c), pathParam(c, "name"), trackerRecord(d), err))
}

func (a *api) deleteTracker(c *fiber.Ctx) error {
	return replyOK(c, a.Svc.DeleteTracker(personOf(c), pathParam(c, "name")))
}

// showURLFor answers the page of ?issue= as plain text (buildsvc.IssueURL).
func (a *api) showURLFor(c *fiber.Ctx) error {
	url, err := a.Svc.IssueURL(c.Query("issue"))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	return c.SendString(url)
}
