package buildapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
)

// The upload revision: cmd=commit commits it, cmd=deleteuploadrev discards it.

// commitUpload commits the pending upload laid over the newest tree (see
// buildsvc.UploadRevision) and answers the new listing.
func (a *api) commitUpload(c *fiber.Ctx) error {
	if rev := c.Query("rev"); rev != "" && rev != buildsvc.UploadRev {
		return buildsvc.BadRequest("invalid_revision", "cmd=commit commits the upload revision: rev=upload or no rev, not '%s'", rev)
	}
	pkg := pathParam(c, "package")
	done, err := a.Svc.Commit(personOf(c), pathParam(c, "project"), pkg, buildsvc.UploadRevision(),
		buildsvc.CommitOptions{Comment: strings.Clone(c.Query("comment")), Listing: true})
	if err != nil {
		return err
	}
	return sendXML(c, committedDoc(pkg, done))
}

// deleteUploadRev discards the pending upload (none is fine).
func (a *api) deleteUploadRev(c *fiber.Ctx) error {
	return sendOKUnless(c, a.Svc.DiscardUpload(personOf(c), pathParam(c, "project"), pathParam(c, "package")))
}
