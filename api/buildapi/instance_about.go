package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
)

// bindAbout registers the instance's own documents.
func (a *api) bindAbout(r fiber.Router) {
	a.get(r, "/about", a.about)
	a.get(r, "/architectures", a.architectures)
	a.get(r, "/architectures/:name", a.architecture)
}

type aboutXML struct {
	XMLName     xml.Name `xml:"about"`
	Title       string   `xml:"title"`
	Description string   `xml:"description"`
	Revision    string   `xml:"revision"`
}

func (a *api) about(c *fiber.Ctx) error {
	return sendXML(c, aboutXML{Title: "pocketforge build service",
		Description: "Build service API (2.7) of the pocketforge appliance", Revision: APIVersion})
}

func (a *api) architectures(c *fiber.Ctx) error {
	return sendXML(c, newDirectory(buildsvc.Architectures))
}

type architectureXML struct {
	XMLName xml.Name `xml:"architecture"`
	Name    string   `xml:"name,attr"`
}

func (a *api) architecture(c *fiber.Ctx) error {
	return replyXML(c, func(name string) architectureXML { return architectureXML{Name: name} })(buildsvc.Architecture(c.Params("name")))
}
