package buildapi

import (
	"encoding/xml"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
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

// Architectures are all the architectures the build service knows in general (the ones an
// instance builds for are in its configuration).
var Architectures = []string{
	"aarch64", "aarch64_ilp32", "armv4l", "armv5el", "armv5tel", "armv6hl", "armv6l", "armv7hl", "armv7l",
	"hppa", "i386", "i486", "i586", "i686", "ia64", "local", "loongarch64", "m68k", "mips", "mips64", "mipsel",
	"ppc", "ppc64", "ppc64le", "ppc64p7", "riscv64", "s390", "s390x", "sparc", "sparc64", "sparc64v",
	"sparcv8", "sparcv9", "sparcv9v", "x86_64",
}

func (a *api) architectures(c *fiber.Ctx) error { return sendXML(c, newDirectory(Architectures)) }

type architectureXML struct {
	XMLName xml.Name `xml:"architecture"`
	Name    string   `xml:"name,attr"`
}

func (a *api) architecture(c *fiber.Ctx) error {
	name := c.Params("name")
	for _, arch := range Architectures {
		if arch == name {
			return sendXML(c, architectureXML{Name: arch})
		}
	}
	return &kit.Error{Status: http.StatusNotFound, Code: "unknown_architecture", Reason: "Architecture not found: " + name}
}
