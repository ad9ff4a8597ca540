package buildapi

import (
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Package meta history (buildsvc.RecordMeta writes it): _history?meta=1 lists the meta
// revisions, ?meta=1 lists the meta tree and _meta?rev=N reads an old meta.

// getMetaListing answers GET /source/P/K?meta=1: the meta tree at ?rev=.
func (a *api) getMetaListing(c *fiber.Ctx) error {
	pkg := pathParam(c, "package")
	r, err := a.Svc.MetaRevision(pathParam(c, "project"), pkg, c.Query("rev"))
	if err != nil {
		return err
	}
	return sendXML(c, dirDoc(pkg, r))
}

// getOldMeta answers GET /source/P/K/_meta?rev=N: the document as meta revision N stored it.
func (a *api) getOldMeta(c *fiber.Ctx) error {
	data, err := a.Svc.OldMeta(pathParam(c, "project"), pathParam(c, "package"), c.Query("rev"))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
	return c.Send(data)
}

// getMetaHistory answers _history?meta=1.
func (a *api) getMetaHistory(c *fiber.Ctx) error {
	all, err := a.Svc.MetaHistory(pathParam(c, "project"), pathParam(c, "package"))
	if err != nil {
		return err
	}
	return sendXML(c, historyDoc(all, c.Query("rev")))
}

// historyDoc renders revisions as _history, keeping only ?rev=N when given.
func historyDoc(all []buildstore.Revision, want string) revisionListXML {
	doc := revisionListXML{}
	for _, r := range all {
		if want == "" || want == strconv.FormatUint(r.Rev, 10) {
			doc.Revisions = append(doc.Revisions, revisionDoc(r))
		}
	}
	return doc
}
