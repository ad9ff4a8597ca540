package admin

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/fixtures"
	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// HeaderSchema carries the schema version of a snapshot.
const HeaderSchema = "X-Pocketforge-Schema-Version"

// snapshot streams a consistent copy of the live data file; it is a data file itself, usable with
// --data, `pocketforge import` or POST /_appliance/restore.
func (h *handlers) snapshot(c *fiber.Ctx) error {
	name := "pocketforge-" + h.Clock.Now().Format("20060102-150405") + ".db"
	c.Set(fiber.HeaderContentType, "application/octet-stream")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	c.Set(HeaderSchema, strconv.FormatUint(store.SchemaVersion(), 10))
	log, id := h.Log, kit.RequestID(c)
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		if _, _, err := h.Store.Snapshot(w); err != nil {
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
	info, err := h.Store.Restore(bytes.NewReader(body), h.RestoreLimit)
	if err != nil {
		return kit.Errorf(kit.Status(err), "%v", err)
	}
	h.OnReplace()
	return c.JSON(fiber.Map{"status": "restored", "schema_version": info.SchemaVersion, "keys": info.Keys})
}

// reset empties the data; a restart keeps it empty.
func (h *handlers) reset(c *fiber.Ctx) error {
	if err := h.Store.Exclusive(fixtures.Empty); err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	h.OnReplace()
	return c.JSON(fiber.Map{"status": "reset"})
}

// reseed empties the data and loads the demo world again.
func (h *handlers) reseed(c *fiber.Ctx) error {
	var applied []string
	err := h.Store.Exclusive(func(tx *bbolt.Tx) (err error) {
		applied, err = fixtures.Reseed(tx, h.Clock.Now())
		return err
	})
	if err != nil {
		return fmt.Errorf("reseed: %w", err)
	}
	h.OnReplace()
	return c.JSON(fiber.Map{"status": "reseeded", "fixtures": applied})
}
