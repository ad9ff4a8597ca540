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
// then 200: "send me traffic". The body lists each condition either way.
func (h *handlers) readyz(c *fiber.Ctx) error {
	status, word := http.StatusOK, "ready"
	if !h.Ready.Ready() {
		status, word = http.StatusServiceUnavailable, "starting"
		c.Set(fiber.HeaderRetryAfter, "1")
	}
	return c.Status(status).JSON(fiber.Map{"status": word, "checks": h.Ready.Checks()})
}
