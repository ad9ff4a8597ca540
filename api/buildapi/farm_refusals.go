package buildapi

import (
	"github.com/gofiber/fiber/v2"
)

// The project command the farm does not serve (move: buildsvc lifecycle_farm.go says why),
// refused after the usual checks.

// farmProjectCmd refuses a project command of buildsvc.ProjectFarmCommands.
func (a *api) farmProjectCmd(c *fiber.Ctx, cmd string) error {
	return a.Farm.RefuseProjectFarmCommand(personOf(c), pathParam(c, "project"), cmd)
}
