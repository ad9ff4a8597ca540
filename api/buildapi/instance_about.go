package buildapi

import (
	"encoding/xml"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
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
	name := c.Params("name")
	for _, arch := range buildsvc.Architectures {
		if arch == name {
			return sendXML(c, architectureXML{Name: arch})
		}
	}
	return &kit.Error{Status: http.StatusNotFound, Code: "unknown_architecture", Reason: "Architecture not found: " + name}
}
