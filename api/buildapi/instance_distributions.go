package buildapi

import (
	"encoding/xml"
	"slices"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
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

// distributionRecord checks one entry: an id, a name, a project and repository to build
// against, and known architectures.
func distributionRecord(x distributionXML) (buildstore.Distribution, error) {
	if x.ID == "" || x.Name == "" || x.Project == "" || x.Repository == "" {
		return buildstore.Distribution{}, buildsvc.Invalid("distribution", "id, name, project and repository are required ('%s')", x.ID)
	}
	for _, arch := range x.Archs {
		if !slices.Contains(buildsvc.Architectures, arch) {
			return buildstore.Distribution{}, buildsvc.Invalid("distribution", "unknown architecture '%s' in '%s'", arch, x.ID)
		}
	}
	d := buildstore.Distribution{ID: x.ID, Vendor: x.Vendor, Version: x.Version, Name: x.Name, Project: x.Project,
		Reponame: x.Reponame, Repository: x.Repository, Link: x.Link, Archs: x.Archs}
	for _, i := range x.Icons {
		d.Icons = append(d.Icons, buildstore.Icon(i))
	}
	return d, nil
}

// listDistributions also answers include_remotes: an appliance has no remote instances, so
// the list including them is the same list.
func (a *api) listDistributions(c *fiber.Ctx) error {
	var list []buildstore.Distribution
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) { list, err = buildstore.Distributions(tx); return }); err != nil {
		return err
	}
	doc := distributionsXML{}
	for _, d := range list {
		doc.Distributions = append(doc.Distributions, distributionDoc(d))
	}
	return sendXML(c, doc)
}

func (a *api) getDistribution(c *fiber.Ctx) error {
	var d buildstore.Distribution
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) { d, err = buildstore.GetDistribution(tx, pathParam(c, "id")); return }); err != nil {
		return err
	}
	return sendXML(c, distributionDoc(d))
}

// putDistributions replaces the whole list (Admin). Ids must be unique; projects are not
// checked here, as the service allows listing distributions built elsewhere.
func (a *api) putDistributions(c *fiber.Ctx) error {
	if err := adminOnly(personOf(c), "change the distributions"); err != nil {
		return err
	}
	var doc distributionsXML
	if err := parseMeta(c.Body(), &doc, "distributions"); err != nil {
		return err
	}
	list := make([]buildstore.Distribution, 0, len(doc.Distributions))
	for _, x := range doc.Distributions {
		d, err := distributionRecord(x)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(list, func(o buildstore.Distribution) bool { return o.ID == d.ID }) {
			return buildsvc.Invalid("distributions", "distribution id '%s' is repeated", d.ID)
		}
		list = append(list, d)
	}
	if err := a.Store.Write(func(tx *bbolt.Tx) error { return buildstore.PutDistributions(tx, list) }); err != nil {
		return err
	}
	return sendOK(c)
}

// postDistribution replaces one existing entry (Admin). The entry must be hosted here, so its
// project must exist on this instance.
func (a *api) postDistribution(c *fiber.Ctx) error {
	id := pathParam(c, "id")
	if err := adminOnly(personOf(c), "change the distributions"); err != nil {
		return err
	}
	var x distributionXML
	if err := parseMeta(c.Body(), &x, "distribution"); err != nil {
		return err
	}
	if x.ID == "" {
		x.ID = id
	}
	if x.ID != id {
		return buildsvc.BadRequest("id_mismatch", "id in xml data ('%s') does not match resource path component ('%s')", x.ID, id)
	}
	d, err := distributionRecord(x)
	if err != nil {
		return err
	}
	err = a.Store.Write(func(tx *bbolt.Tx) error {
		if _, err := buildstore.GetDistribution(tx, id); err != nil {
			return err
		}
		if _, err := buildstore.GetProject(tx, d.Project); err != nil {
			return buildsvc.Invalid("distribution", "project '%s' is not hosted on this instance", d.Project)
		}
		list, err := buildstore.Distributions(tx)
		if err != nil {
			return err
		}
		list[slices.IndexFunc(list, func(o buildstore.Distribution) bool { return o.ID == id })] = d
		return buildstore.PutDistributions(tx, list)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}
