package buildapi

import (
	"github.com/gofiber/fiber/v2"
)

// The commands that need the build farm, refused after the usual checks (buildsvc
// lifecycle_farm.go says which and why: PackageFarmCommands, ProjectFarmCommands).

// farmPackageCmd refuses a package command of buildsvc.PackageFarmCommands.
func (a *api) farmPackageCmd(c *fiber.Ctx, cmd string) error {
	return a.Svc.RefusePackageFarmCommand(personOf(c), pathParam(c, "project"), pathParam(c, "package"), cmd)
}

// farmProjectCmd refuses a project command of buildsvc.ProjectFarmCommands.
func (a *api) farmProjectCmd(c *fiber.Ctx, cmd string) error {
	return a.Svc.RefuseProjectFarmCommand(personOf(c), pathParam(c, "project"), cmd)
}
