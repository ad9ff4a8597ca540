package buildapi

import (
	"bytes"
	"encoding/xml"
	"slices"
	"strconv"

	"github.com/gofiber/fiber/v2"
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

// appendXML renders the directory as xml.MarshalIndent does, without reflection: every
// listing of a project's packages (20,000 in the benchmark) is one.
func (d directory) appendXML(b []byte) []byte {
	size := 32
	for _, e := range d.Entries {
		size += len(e.Name) + 24
	}
	b = slices.Grow(b, size)
	b = strconv.AppendInt(append(b, `<directory count="`...), int64(d.Count), 10)
	b = append(b, `">`...)
	for _, e := range d.Entries {
		b = appendEscaped(append(b, "\n  <entry name=\""...), e.Name)
		b = append(b, `"></entry>`...)
	}
	if len(d.Entries) > 0 {
		b = append(b, '\n')
	}
	return append(b, "</directory>"...)
}

// appendEscaped appends s escaped as encoding/xml escapes an attribute value.
func appendEscaped(b []byte, s string) []byte {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\'' || c == '&' || c == '<' || c == '>' {
			plain = false
			break
		}
	}
	if plain {
		return append(b, s...)
	}
	var w bytes.Buffer
	_ = xml.EscapeText(&w, []byte(s))
	return append(b, w.Bytes()...)
}
