package buildapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// guardProject answers 404 for a request naming a project hidden from the person; it runs
// inside authenticated, so every route with a :project parameter is guarded in one place (the
// rule itself is buildsvc's).
func (a *api) guardProject(c *fiber.Ctx, who buildstore.Person) error {
	return a.Svc.GuardProject(who, pathParam(c, "project"))
}
