package admin

import (
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/chaos"
	"github.com/pocketforge/pocketforge/fault"
)

// Fault and latency injection (internal/chaos): GET lists the rules with how often each fired,
// PUT replaces them, POST adds to them, DELETE clears them. The rules are in memory only and
// start empty; the /_appliance endpoints themselves are never faulted.

func (h *handlers) getChaos(c *fiber.Ctx) error { return c.JSON(h.Chaos.Current()) }

func (h *handlers) putChaos(c *fiber.Ctx) error {
	s, err := chaos.Parse(c.Body())
	if err != nil {
		return badRule(c, err)
	}
	h.Chaos.Replace(s)
	return c.JSON(h.Chaos.Current())
}

func (h *handlers) addChaos(c *fiber.Ctx) error {
	s, err := chaos.Parse(c.Body())
	if err == nil {
		err = h.Chaos.Add(s)
	}
	if err != nil {
		return badRule(c, err)
	}
	return c.JSON(h.Chaos.Current())
}

func (h *handlers) clearChaos(c *fiber.Ctx) error {
	h.Chaos.Clear()
	return c.SendStatus(http.StatusNoContent)
}

// badRule answers a rule set that does not parse: 400 {"error", "field"}, the field also
// leading the message, so that a script printing only "error" still says what to fix.
func badRule(c *fiber.Ctx, err error) error {
	field := fault.Field(err)
	return c.Status(http.StatusBadRequest).JSON(fiber.Map{"error": field + ": " + err.Error(), "field": field})
}
