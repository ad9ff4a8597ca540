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
	return sendWritten(c, append(body, '\n'))
}

// sendWritten answers an XML document a byte-exact writer (buildsvc/xmlindent's users) wrote
// as sendXML would have marshalled it.
func sendWritten(c *fiber.Ctx, body []byte) error {
	c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
	return c.Send(body)
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
