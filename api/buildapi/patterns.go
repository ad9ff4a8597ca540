package buildapi

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// Project patterns: /source/P/_pattern lists the pattern files, /source/P/_pattern/<file> reads,
// writes and deletes one. A pattern is an installer's package group (pattern.rng); the appliance
// keeps it as sent after checking that it is a well-formed XML document with a <pattern> root,
// in whatever namespace (the real files use http://novell.com/package/metadata/suse/pattern).

// patternListXML lists pattern files like a source listing: name, md5, size and mtime each.
type patternListXML struct {
	XMLName xml.Name          `xml:"directory"`
	Count   int               `xml:"count,attr"`
	Entries []patternEntryXML `xml:"entry"`
}

type patternEntryXML struct {
	Name  string `xml:"name,attr"`
	MD5   string `xml:"md5,attr"`
	Size  int    `xml:"size,attr"`
	MTime int64  `xml:"mtime,attr"`
}

// patternNotFound is the backend's 404 for a missing pattern file, passed through with the
// numeric code as for any missing source file.
func patternNotFound(name string) error {
	return &kit.Error{Status: http.StatusNotFound, Code: "404", Reason: name + ": no such file"}
}

// checkPatternName refuses what the backend refuses as a file name: empty, a "/", a leading
// ".", control characters, more than 200 bytes.
func checkPatternName(name string) error {
	if name == "" || strings.Contains(name, "/") || strings.HasPrefix(name, ".") || len(name) > 200 ||
		strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return buildsvc.BadRequest("invalid_filename", "'%s' is not a valid pattern file name", name)
	}
	return nil
}

// checkPatternXML accepts one well-formed XML document whose root element is <pattern>.
// encoding/xml checks nesting and entities and never expands external ones.
func checkPatternXML(body []byte) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return buildsvc.Invalid("pattern", "Document is empty")
	}
	dec := xml.NewDecoder(bytes.NewReader(body))
	depth, roots := 0, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return buildsvc.Invalid("pattern", "%v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				if roots++; roots > 1 {
					return buildsvc.Invalid("pattern", "more than one root element")
				}
				if t.Name.Local != "pattern" {
					return buildsvc.Invalid("pattern", "the root element must be <pattern>, not <%s>", t.Name.Local)
				}
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && len(bytes.TrimSpace(t)) > 0 {
				return buildsvc.Invalid("pattern", "text outside the root element")
			}
		}
	}
	if roots == 0 {
		return buildsvc.Invalid("pattern", "no root element")
	}
	return nil
}

// listPatterns lists the project's pattern files by name.
func (a *api) listPatterns(c *fiber.Ctx) error {
	name := pathParam(c, "project")
	var all []buildstore.Pattern
	err := a.Store.View(func(tx *bbolt.Tx) error {
		if _, err := buildstore.GetProject(tx, name); err != nil {
			return buildsvc.NotFoundAs(err, "unknown_project")
		}
		var err error
		all, err = buildstore.Patterns(tx, name)
		return err
	})
	if err != nil {
		return err
	}
	doc := patternListXML{Count: len(all)}
	for _, p := range all {
		doc.Entries = append(doc.Entries, patternEntryXML{Name: p.Name, MD5: p.MD5, Size: len(p.Data), MTime: p.MTime})
	}
	return sendXML(c, doc)
}

// getPattern answers a pattern file as it was stored.
func (a *api) getPattern(c *fiber.Ctx) error {
	project, name := pathParam(c, "project"), pathParam(c, "pattern")
	var p buildstore.Pattern
	err := a.Store.View(func(tx *bbolt.Tx) error {
		if _, err := buildstore.GetProject(tx, project); err != nil {
			return buildsvc.NotFoundAs(err, "unknown_project")
		}
		var err error
		if p, err = buildstore.GetPattern(tx, project, name); err != nil {
			return patternNotFound(name)
		}
		return nil
	})
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
	return c.Send(p.Data)
}

// patternWrite runs a pattern write for a maintainer of the project (or Admin): the service
// answers change_project_no_permission with its own sentence (denied) otherwise, and
// project_locked on a locked project.
func (a *api) patternWrite(c *fiber.Ctx, denied string, write func(tx *bbolt.Tx, project, name string) error) error {
	project, name, who := pathParam(c, "project"), pathParam(c, "pattern"), personOf(c)
	if err := checkPatternName(name); err != nil {
		return err
	}
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		_, err := buildsvc.ProjectOfMaintainer(tx, who, project, true, buildsvc.Forbidden("change_project_no_permission", "%s in project '%s'", denied, project))
		if err != nil {
			return err
		}
		return write(tx, project, name)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// putPattern stores a pattern file (new or replaced) after the document check.
func (a *api) putPattern(c *fiber.Ctx) error {
	body := slices.Clone(c.Body())
	if err := checkPatternXML(body); err != nil {
		return err
	}
	now := a.Clock.Now().Unix()
	return a.patternWrite(c, "no permission to store pattern", func(tx *bbolt.Tx, project, name string) error {
		return buildstore.PutPattern(tx, project, buildstore.Pattern{Name: name, Data: body, MTime: now})
	})
}

// deletePattern removes a pattern file; a missing one is the backend's 404.
func (a *api) deletePattern(c *fiber.Ctx) error {
	return a.patternWrite(c, "no permission to delete pattern", func(tx *bbolt.Tx, project, name string) error {
		if err := buildstore.DeletePattern(tx, project, name); err != nil {
			return patternNotFound(name)
		}
		return nil
	})
}
