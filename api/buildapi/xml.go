package buildapi

import (
	"encoding/xml"
	"slices"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/xmlindent"
)

// sendXML writes v as an XML document, the way the build service answers (no declaration;
// Content-Type application/xml, which osc does not check but browsers and curl users read).
// A document that renders itself (an xmlAppender) skips encoding/xml's reflection.
func sendXML(c *fiber.Ctx, v any) error {
	var body []byte
	if a, ok := v.(xmlAppender); ok {
		body = a.appendXML(nil)
	} else {
		var err error
		if body, err = xml.MarshalIndent(v, "", "  "); err != nil {
			return err
		}
	}
	return sendWritten(c, append(body, '\n'))
}

// sendWritten answers an XML document a byte-exact writer (buildsvc/xmlindent's users) wrote
// as sendXML would have marshalled it.
func sendWritten(c *fiber.Ctx, body []byte) error {
	c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
	return c.Send(body)
}

// xmlAppender is a document on a hot path that appends its XML to b itself, byte for byte as
// xml.MarshalIndent(v, "", "  ") writes it (a test holds each to that).
type xmlAppender interface {
	appendXML(b []byte) []byte
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

// appendXML renders the directory as xml.MarshalIndent does, without reflection (through
// xmlindent, the one byte-exact writer of the build service's documents): every listing of a
// project's packages (20,000 in the benchmark) is one.
func (d directory) appendXML(b []byte) []byte {
	size := 32
	for _, e := range d.Entries {
		size += len(e.Name) + 24
	}
	w := xmlindent.New(slices.Grow(b, size), 0)
	w.Open("directory", xmlindent.Must("count", strconv.Itoa(d.Count)))
	for _, e := range d.Entries {
		w.Empty("entry", xmlindent.Must("name", e.Name))
	}
	w.Close("directory")
	return w.Bytes()
}
