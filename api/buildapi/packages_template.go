package buildapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
)

// createSpecFileTemplate commits <package>.spec from the service's template
// (buildsvc.CreateSpecFileTemplate).
func (a *api) createSpecFileTemplate(c *fiber.Ctx) error {
	err := a.Svc.CreateSpecFileTemplate(personOf(c), pathParam(c, "project"), pathParam(c, "package"), strings.Clone(c.Query("comment")))
	if err != nil {
		return err
	}
	return sendOK(c)
}
