package admin

import (
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
)

// listRequests shows the latest requests the APIs answered, newest first. Filters: api, method,
// path (prefix), status (404, or 4 for every 4xx), user (the authenticated user), token (a cloud
// token's id, or the start of the prefix its token views show), limit (default 100).
func (h *handlers) listRequests(c *fiber.Ctx) error {
	limit, err := queryInt(c, "limit", 100, 1, 100000)
	if err != nil {
		return err
	}
	status, err := queryInt(c, "status", 0, 0, 599)
	if err != nil {
		return err
	}
	f := kit.Filter{API: c.Query("api"), Method: c.Query("method"), PathPrefix: c.Query("path"), Status: status, Limit: limit,
		User: c.Query("user"), Token: c.Query("token")}
	list := h.Journal.List(f)
	return c.JSON(fiber.Map{"capacity": h.Journal.Cap(), "count": len(list), "requests": list})
}

func (h *handlers) clearRequests(c *fiber.Ctx) error {
	h.Journal.Clear()
	return c.SendStatus(http.StatusNoContent)
}

// listOutbox shows the e-mails the APIs sent, newest first. Filters: to (an address), limit.
func (h *handlers) listOutbox(c *fiber.Ctx) error {
	limit, err := queryInt(c, "limit", 100, 1, 100000)
	if err != nil {
		return err
	}
	mails, err := h.Appliance.Outbox(c.Query("to"), limit)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"count": len(mails), "mails": mails})
}

func (h *handlers) clearOutbox(c *fiber.Ctx) error {
	if err := h.Appliance.ClearOutbox(); err != nil {
		return err
	}
	return c.SendStatus(http.StatusNoContent)
}

// queryInt reads an optional integer query parameter within [lo, hi].
func queryInt(c *fiber.Ctx, name string, def, lo, hi int) (int, error) {
	raw := c.Query(name)
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < lo || n > hi {
		return 0, kit.Errorf(http.StatusBadRequest, "%s must be an integer from %d to %d, got %q", name, lo, hi, raw)
	}
	return n, nil
}
