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
	x := distributionXML{ID: d.ID, Vendor: d.Vendor, Version: d.Version, Name: d.Name, Project: d.Project,
		Reponame: d.Reponame, Repository: d.Repository, Link: d.Link, Archs: d.Archs}
	for _, i := range d.Icons {
		x.Icons = append(x.Icons, iconXML(i))
	}
	return x
}

// distributionRecord is one entry of a document; buildsvc checks it.
func distributionRecord(x distributionXML) buildstore.Distribution {
	d := buildstore.Distribution{ID: x.ID, Vendor: x.Vendor, Version: x.Version, Name: x.Name, Project: x.Project,
		Reponame: x.Reponame, Repository: x.Repository, Link: x.Link, Archs: x.Archs}
	for _, i := range x.Icons {
		d.Icons = append(d.Icons, buildstore.Icon(i))
	}
	return d
}

// listDistributions also answers include_remotes: an appliance has no remote instances, so
// the list including them is the same list.
func (a *api) listDistributions(c *fiber.Ctx) error {
	list, err := a.Svc.Distributions()
	if err != nil {
		return err
	}
	doc := distributionsXML{}
	for _, d := range list {
		doc.Distributions = append(doc.Distributions, distributionDoc(d))
	}
	return sendXML(c, doc)
}

func (a *api) getDistribution(c *fiber.Ctx) error {
	d, err := a.Svc.Distribution(pathParam(c, "id"))
	if err != nil {
		return err
	}
	return sendXML(c, distributionDoc(d))
}

// putDistributions replaces the whole list (Admin).
func (a *api) putDistributions(c *fiber.Ctx) error {
	var doc distributionsXML
	err := parseMeta(c.Body(), &doc, "distributions")
	list := make([]buildstore.Distribution, 0, len(doc.Distributions))
	for _, x := range doc.Distributions {
		list = append(list, distributionRecord(x))
	}
	return replyOK(c, a.Svc.PutDistributions(personOf(c), list, err))
}

// postDistribution replaces one existing entry (Admin).
func (a *api) postDistribution(c *fiber.Ctx) error {
	var x distributionXML
	err := parseMeta(c.Body(), &x, "distribution")
	return replyOK(c, a.Svc.ChangeDistribution(personOf(c), pathParam(c, "id"), distributionRecord(x), err))
}
