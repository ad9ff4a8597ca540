package buildapi

import (
	"encoding/xml"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// Package meta history: every write of a package's meta appends a meta revision (store
// metahist.go) with the document as GET …/_meta showed it then; _history?meta=1 lists them,
// ?meta=1 lists the meta tree and _meta?rev=N reads an old one.

// recordMeta appends the package's current meta to its meta history.
func (a *api) recordMeta(tx *bbolt.Tx, k buildstore.Package, who, comment string) error {
	doc, err := xml.MarshalIndent(packageDoc(k), "", "  ")
	if err != nil {
		return err
	}
	_, err = buildstore.CommitMeta(tx, k.Project, k.Name, append(doc, '\n'), who, comment, a.Clock.Now())
	return err
}

// metaRevision reads meta revision ?rev= of the URL's package (404 for a missing project,
// package or revision).
func metaRevision(tx *bbolt.Tx, c *fiber.Ctx) (buildstore.Revision, error) {
	project, pkg := pathParam(c, "project"), pathParam(c, "package")
	if _, _, err := buildsvc.LookupPackage(tx, project, pkg); err != nil {
		return buildstore.Revision{}, err
	}
	r, found, err := buildstore.MetaRevision(tx, project, pkg, c.Query("rev"))
	if err == nil && !found {
		err = buildsvc.NoSuchRevision()
	}
	return r, err
}

// getMetaListing answers GET /source/P/K?meta=1: the meta tree at ?rev=.
func (a *api) getMetaListing(c *fiber.Ctx) error {
	var r buildstore.Revision
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) { r, err = metaRevision(tx, c); return }); err != nil {
		return err
	}
	return sendXML(c, dirDoc(pathParam(c, "package"), r))
}

// getOldMeta answers GET /source/P/K/_meta?rev=N: the document as meta revision N stored it.
func (a *api) getOldMeta(c *fiber.Ctx) error {
	var data []byte
	err := a.Store.View(func(tx *bbolt.Tx) error {
		r, err := metaRevision(tx, c)
		if err != nil {
			return err
		}
		data, err = buildstore.GetBlob(tx, r.Files[0].MD5)
		return err
	})
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
	return c.Send(data)
}

// getMetaHistory answers _history?meta=1.
func (a *api) getMetaHistory(c *fiber.Ctx) error {
	project, pkg := pathParam(c, "project"), pathParam(c, "package")
	var all []buildstore.Revision
	err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		if _, _, err := buildsvc.LookupPackage(tx, project, pkg); err != nil {
			return err
		}
		all, err = buildstore.MetaRevisions(tx, project, pkg)
		return err
	})
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
