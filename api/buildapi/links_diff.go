package buildapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
)

// linkDiff answers cmd=linkdiff: the unified diff from the link's target tree to the link's
// expansion (buildsvc.LinkDiff), in the source diff's text format.
func (a *api) linkDiff(c *fiber.Ctx) error {
	text, err := a.Svc.LinkDiff(personOf(c), pathParam(c, "project"), pathParam(c, "package"),
		strings.Clone(c.Query("rev")), strings.Clone(c.Query("linkrev")))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	return c.SendString(text)
}
