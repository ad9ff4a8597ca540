package buildapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// The upload revision: cmd=commit commits it, cmd=deleteuploadrev discards it.

// commitUpload commits the pending upload laid over the newest tree (without an upload: the
// newest tree again, a new revision with the same srcmd5) and discards the upload.
func (a *api) commitUpload(c *fiber.Ctx) error {
	if rev := c.Query("rev"); rev != "" && rev != buildsvc.UploadRev {
		return buildsvc.BadRequest("invalid_revision", "cmd=commit commits the upload revision: rev=upload or no rev, not '%s'", rev)
	}
	project, pkg, who := pathParam(c, "project"), pathParam(c, "package"), personOf(c)
	comment := strings.Clone(c.Query("comment"))
	var doc fileDirXML
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		if err := buildsvc.Writable(tx, who, project, pkg, "put_file_no_permission"); err != nil {
			return err
		}
		files, err := buildsvc.LatestFiles(tx, project, pkg)
		if err != nil {
			return err
		}
		u, _, err := buildstore.GetUpload(tx, project, pkg)
		if err != nil {
			return err
		}
		r, err := buildstore.Commit(tx, project, pkg, buildstore.Overlay(files, u.Files), who.Login, comment, a.Clock.Now())
		if err != nil {
			return err
		}
		if doc, err = committedView(tx, project, pkg, r); err != nil {
			return err
		}
		return buildstore.DropUpload(tx, project, pkg)
	})
	if err != nil {
		return err
	}
	return sendXML(c, doc)
}

// deleteUploadRev discards the pending upload (none is fine); the blobs stay, as all blobs do.
func (a *api) deleteUploadRev(c *fiber.Ctx) error {
	project, pkg, who := pathParam(c, "project"), pathParam(c, "package"), personOf(c)
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		if err := buildsvc.Writable(tx, who, project, pkg, "delete_file_no_permission"); err != nil {
			return err
		}
		return buildstore.DropUpload(tx, project, pkg)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}
