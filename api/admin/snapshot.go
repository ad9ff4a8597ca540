package admin

import (
	"bufio"
	"bytes"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/appliancesvc"
)

// HeaderSchema carries the schema version of a snapshot.
const HeaderSchema = "X-Pocketforge-Schema-Version"

// snapshot streams a consistent copy of the live data file; it is a data file itself, usable with
// --data, `pocketforge import` or POST /_appliance/restore.
func (h *handlers) snapshot(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, "application/octet-stream")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+h.Appliance.SnapshotName()+`"`)
	c.Set(HeaderSchema, appliancesvc.SchemaVersion())
	log, id, appl := h.Log, kit.RequestID(c), h.Appliance
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		if err := appl.Snapshot(w); err != nil {
			log.Error("snapshot stream failed", "request_id", id, "err", err)
			return
		}
		if err := w.Flush(); err != nil {
			log.Warn("snapshot stream cut", "request_id", id, "err", err)
		}
	})
	return nil
}

// restore replaces the data with the uploaded snapshot (the request body, as sent by
// `curl --data-binary @file`). Appliance state — credentials, clock — is kept.
func (h *handlers) restore(c *fiber.Ctx) error {
	body := c.Body()
	if len(body) == 0 {
		return kit.Errorf(http.StatusBadRequest, "send the snapshot as the request body (curl --data-binary @snapshot.db)")
	}
	info, err := h.Appliance.Restore(bytes.NewReader(body), h.RestoreLimit)
	if err != nil {
		return kit.Errorf(kit.Status(err), "%v", err)
	}
	return c.JSON(fiber.Map{"status": "restored", "schema_version": info.SchemaVersion, "keys": info.Keys})
}

// reset empties the data; a restart keeps it empty.
func (h *handlers) reset(c *fiber.Ctx) error {
	if err := h.Appliance.Reset(); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"status": "reset"})
}

// reseed empties the data and loads the demo world again.
func (h *handlers) reseed(c *fiber.Ctx) error {
	applied, err := h.Appliance.Reseed()
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"status": "reseeded", "fixtures": applied})
}
