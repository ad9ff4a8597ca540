package buildapi

import (
	"encoding/xml"
	"slices"

	"github.com/gofiber/fiber/v2"
)

// Project patterns: /source/P/_pattern lists the pattern files, /source/P/_pattern/<file> reads,
// writes and deletes one (buildsvc/projects_patterns.go checks and keeps them).

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

// listPatterns lists the project's pattern files by name.
func (a *api) listPatterns(c *fiber.Ctx) error {
	all, err := a.Svc.Patterns(pathParam(c, "project"))
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
	p, err := a.Svc.Pattern(pathParam(c, "project"), pathParam(c, "pattern"))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
	return c.Send(p.Data)
}

// putPattern stores a pattern file (new or replaced) after the document check.
func (a *api) putPattern(c *fiber.Ctx) error {
	err := a.Svc.PutPattern(personOf(c), pathParam(c, "project"), pathParam(c, "pattern"), slices.Clone(c.Body()))
	if err != nil {
		return err
	}
	return sendOK(c)
}

// deletePattern removes a pattern file; a missing one is the backend's 404.
func (a *api) deletePattern(c *fiber.Ctx) error {
	if err := a.Svc.DeletePattern(personOf(c), pathParam(c, "project"), pathParam(c, "pattern")); err != nil {
		return err
	}
	return sendOK(c)
}
