package applianceweb

import (
	"bufio"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/appliancesvc"
	"github.com/pocketforge/pocketforge/web"
)

// snapshot streams a consistent copy of the live data file, as GET /_appliance/snapshot does
// (the same name, the same schema header): the download is a data file for --data, import or
// restore.
func (h *handlers) snapshot(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, "application/octet-stream")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+h.Appliance.SnapshotName()+`"`)
	c.Set("X-Pocketforge-Schema-Version", appliancesvc.SchemaVersion())
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Context().SetBodyStreamWriter(snapshotStream(h.Appliance, h.Log, c.GetRespHeader(fiber.HeaderXRequestID)))
	return nil
}

// snapshotStream writes a snapshot of appl's data, logging a failure with the request's id.
func snapshotStream(appl *appliancesvc.Service, log *slog.Logger, id string) func(*bufio.Writer) {
	// The stream runs after the handler has returned — and still runs after a client gone away
	// has freed the request to the next one — while id views this request's response header.
	id = strings.Clone(id)
	return func(w *bufio.Writer) {
		if err := appl.Snapshot(w); err != nil {
			log.Error("snapshot stream failed", "request_id", id, "err", err)
			return
		}
		if err := w.Flush(); err != nil {
			log.Warn("snapshot stream cut", "request_id", id, "err", err)
		}
	}
}

// confirmView is the confirm step of reset and reseed, and their outcome.
type confirmView struct {
	Tab string
	// Action is "reset" or "reseed".
	Action string
	// Done is set once the action ran; Fixtures are the sets a reseed applied.
	Done     bool
	Fixtures []string
}

// confirm asks before the data is replaced: GET /appliance/reset and /reseed draw the form
// that POSTs to themselves.
func (h *handlers) confirm(c *fiber.Ctx) error {
	action := strings.TrimPrefix(c.Path(), "/appliance/")
	return h.Site.Render(c, http.StatusOK, "Confirm "+action, web.SectionAppliance, web.PageOf(confirmPage, confirmView{Tab: "overview", Action: action}))
}

// reset empties the data through appliancesvc.Reset, which runs the same replace hook as
// POST /_appliance/reset.
func (h *handlers) reset(c *fiber.Ctx) error {
	if err := h.Appliance.Reset(); err != nil {
		return err
	}
	return h.Site.Render(c, http.StatusOK, "Data reset", web.SectionAppliance, web.PageOf(confirmPage, confirmView{Tab: "overview", Action: "reset", Done: true}))
}

// reseed empties the data and loads the demo world again (appliancesvc.Reseed, as POST
// /_appliance/reseed).
func (h *handlers) reseed(c *fiber.Ctx) error {
	applied, err := h.Appliance.Reseed()
	if err != nil {
		return err
	}
	return h.Site.Render(c, http.StatusOK, "Data reseeded", web.SectionAppliance, web.PageOf(confirmPage, confirmView{Tab: "overview", Action: "reseed", Done: true, Fixtures: applied}))
}
