package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
)

// cmd=showlinked on a package (the packages whose newest tree links to it) and on a project
// (the projects whose meta links to it); buildsvc leaves out what is hidden from the caller.

// packageLinkers is a package's showlinked answer.
type packageLinkers struct {
	XMLName  xml.Name        `xml:"collection"`
	Packages []linkedPackage `xml:"package"`
}

type linkedPackage struct {
	Project string `xml:"project,attr"`
	Name    string `xml:"name,attr"`
}

// showLinkedPackages lists the packages whose newest tree links to this one.
func (a *api) showLinkedPackages(c *fiber.Ctx) error {
	list, err := a.Svc.LinkingPackages(personOf(c), pathParam(c, "project"), pathParam(c, "package"))
	if err != nil {
		return err
	}
	doc := packageLinkers{}
	for _, pk := range list {
		doc.Packages = append(doc.Packages, linkedPackage{Project: pk[0], Name: pk[1]})
	}
	return sendXML(c, doc)
}

// linkedCollection is a project's showlinked answer: <collection><project name=…/>*</collection>.
type linkedCollection struct {
	XMLName  xml.Name `xml:"collection"`
	Projects []entry  `xml:"project"`
}

// showLinked lists the projects whose meta links to this one.
func (a *api) showLinked(c *fiber.Ctx) error {
	names, err := a.Svc.LinkingProjects(personOf(c), pathParam(c, "project"))
	if err != nil {
		return err
	}
	doc := linkedCollection{}
	for _, n := range names {
		doc.Projects = append(doc.Projects, entry{Name: n})
	}
	return sendXML(c, doc)
}
