package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
)

// bindSources registers /source: project and package lists, metas and deletes (file contents
// and revisions come later). The _meta routes come first: "_meta" is never a package name.
func (a *api) bindSources(r fiber.Router) {
	a.get(r, "/source", a.listProjects) // also /source/, which osc ls / asks for (StrictRouting is off)
	a.get(r, "/source/:project/_meta", a.getProjectMeta)
	r.Put("/source/:project/_meta", a.authenticated, a.putProjectMeta)
	a.get(r, "/source/:project", a.listPackages)
	a.bindProjectCmds(r)
	r.Delete("/source/:project", a.authenticated, a.deleteProject)
	a.get(r, "/source/:project/:package/_meta", a.getPackageMeta)
	r.Put("/source/:project/:package/_meta", a.authenticated, a.putPackageMeta)
	a.get(r, "/source/:project/:package", a.getPackage)
	r.Delete("/source/:project/:package", a.authenticated, a.deletePackage)
}

// sendOK is the answer of every successful write.
func sendOK(c *fiber.Ctx) error { return sendXML(c, status{Code: "ok", Summary: "Ok"}) }

// boolParam reads a query flag the way the service does (it asks whether the key is there):
// "?deleted" and "?deleted=1" (what osc sends) are on; "0" and "false" are taken as off, which
// is what a reader of the URL expects.
func boolParam(c *fiber.Ctx, name string) bool {
	v := c.Query(name)
	if v == "" {
		return c.Context().QueryArgs().Has(name)
	}
	return v != "0" && v != "false"
}

// listProjects lists the projects the person may see; ?deleted=1 lists the deleted ones they
// may restore instead (buildsvc.Service.Projects).
func (a *api) listProjects(c *fiber.Ctx) error {
	names, err := a.Svc.Projects(personOf(c), boolParam(c, "deleted"))
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}

// expandedDirectory is the package list with ?expand=1: each entry names the project it comes
// from, own packages included, as the service renders it.
type expandedDirectory struct {
	XMLName xml.Name        `xml:"directory"`
	Count   int             `xml:"count,attr"`
	Entries []expandedEntry `xml:"entry"`
}

type expandedEntry struct {
	Name          string `xml:"name,attr"`
	OriginProject string `xml:"originproject,attr"`
}

// listPackages lists a project's packages; ?deleted=1 lists the deleted ones (tombstones), also
// of a deleted project that the person may restore; ?expand=1 adds the packages inherited
// through project links that the person may see (see boolParam for what counts as set).
func (a *api) listPackages(c *fiber.Ctx) error {
	switch c.Query("view") {
	case "info":
		return a.projectInfo(c)
	case "issues":
		return a.projectIssues(c)
	case "productlist", "verboseproductlist":
		return a.projectProducts(c, c.Query("view") == "verboseproductlist")
	}
	name, who, deleted := pathParam(c, "project"), personOf(c), boolParam(c, "deleted")
	if boolParam(c, "expand") && !deleted {
		expanded, err := a.Svc.ExpandedPackages(who, name)
		if err != nil {
			return err
		}
		doc := expandedDirectory{Count: len(expanded)}
		for _, k := range expanded {
			doc.Entries = append(doc.Entries, expandedEntry{Name: k.Name, OriginProject: k.Project})
		}
		return sendXML(c, doc)
	}
	names, err := a.Svc.Packages(who, name, deleted)
	if err != nil {
		return err
	}
	return sendXML(c, newDirectory(names))
}
