package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
)

// sendXML writes v as an XML document, the way the build service answers (no declaration;
// Content-Type application/xml, which osc does not check but browsers and curl users read).
func sendXML(c *fiber.Ctx, v any) error {
	body, err := xml.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
	return c.Send(append(body, '\n'))
}

// directory is the build service's generic list document: <directory count="N"><entry name=…/>.
type directory struct {
	XMLName xml.Name `xml:"directory"`
	Count   int      `xml:"count,attr"`
	Entries []entry  `xml:"entry"`
}

type entry struct {
	Name string `xml:"name,attr"`
}

// newDirectory lists names as a directory document.
func newDirectory(names []string) directory {
	d := directory{Count: len(names), Entries: make([]entry, len(names))}
	for i, n := range names {
		d.Entries[i] = entry{Name: n}
	}
	return d
}
