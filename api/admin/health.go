package admin

import (
	"net/http"

	"github.com/gofiber/fiber/v2"
)

// livez answers 200 as soon as the process serves HTTP: "restart me if this fails".
func (h *handlers) livez(c *fiber.Ctx) error {
	return c.JSON(fiber.Map{"status": "live"})
}

// readyz answers 503 until the store is open, the fixtures are loaded and the indexes are built,
// then 200: "send me traffic" — and, on a shared store, 503 again while the database cannot be
// reached. The body lists each condition either way, and the database's connection and this
// node's change-log lag (password masked).
func (h *handlers) readyz(c *fiber.Ctx) error {
	status, word := http.StatusOK, "ready"
	if !h.Ready.Ready() {
		status, word = http.StatusServiceUnavailable, "starting"
		c.Set(fiber.HeaderRetryAfter, "1")
	}
	body := fiber.Map{"status": word, "checks": h.Ready.Checks()}
	if h.Store != nil {
		if st, ok := h.Store.DatabaseStatus(); ok { // --store: the database and this node's lag
			body["database"] = st
		}
	}
	return c.Status(status).JSON(body)
}
