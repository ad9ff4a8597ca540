package kit

import "github.com/gofiber/fiber/v2"

// RenderSimple writes the {"error": "…"} body the explorer API and the appliance endpoints share.
func RenderSimple(c *fiber.Ctx, err error) error {
	status := Status(err)
	return c.Status(status).JSON(fiber.Map{"error": Reason(err, status)})
}
