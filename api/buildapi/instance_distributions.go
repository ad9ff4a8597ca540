package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Distributions are the base systems hosted here that a project's repository can build against
// (osc and the web UI offer them when adding a repository).

type iconXML struct {
	URL    string `xml:"url,attr"`
	Width  string `xml:"width,attr,omitempty"`
	Height string `xml:"height,attr,omitempty"`
}

type distributionXML struct {
	XMLName    xml.Name  `xml:"distribution"`
	ID         string    `xml:"id,attr"`
	Vendor     string    `xml:"vendor,attr"`
	Version    string    `xml:"version,attr"`
	Name       string    `xml:"name"`
	Project    string    `xml:"project"`
	Reponame   string    `xml:"reponame"`
	Repository string    `xml:"repository"`
	Link       string    `xml:"link"`
	Icons      []iconXML `xml:"icon"`
	Archs      []string  `xml:"architecture"`
}

type distributionsXML struct {
	XMLName       xml.Name          `xml:"distributions"`
	Distributions []distributionXML `xml:"distribution"`
}

func distributionDoc(d buildstore.Distribution) distributionXML {
	return distributionXML{ID: d.ID, Vendor: d.Vendor, Version: d.Version, Name: d.Name, Project: d.Project,
		Reponame: d.Reponame, Repository: d.Repository, Link: d.Link, Archs: d.Archs,
		Icons: docsOf(d.Icons, func(i buildstore.Icon) iconXML { return iconXML(i) })}
}

func distributionsDoc(list []buildstore.Distribution) distributionsXML {
	return distributionsXML{Distributions: docsOf(list, distributionDoc)}
}

// distributionRecord is one entry of a document; buildsvc checks it.
func distributionRecord(x distributionXML) buildstore.Distribution {
	return buildstore.Distribution{ID: x.ID, Vendor: x.Vendor, Version: x.Version, Name: x.Name, Project: x.Project,
		Reponame: x.Reponame, Repository: x.Repository, Link: x.Link, Archs: x.Archs,
		Icons: docsOf(x.Icons, func(i iconXML) buildstore.Icon { return buildstore.Icon(i) })}
}

// putDistributions replaces the whole list (Admin).
func (a *api) putDistributions(c *fiber.Ctx) error {
	var doc distributionsXML
	err := parseMeta(c.Body(), &doc, "distributions")
	return replyOK(c, a.Svc.PutDistributions(personOf(c), docsOf(doc.Distributions, distributionRecord), err))
}

// postDistribution replaces one existing entry (Admin).
func (a *api) postDistribution(c *fiber.Ctx) error {
	var x distributionXML
	err := parseMeta(c.Body(), &x, "distribution")
	return replyOK(c, a.Svc.ChangeDistribution(personOf(c), pathParam(c, "id"), distributionRecord(x), err))
}
