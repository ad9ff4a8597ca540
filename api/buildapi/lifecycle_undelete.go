package buildapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
)

// cmd=undelete on a package and on a project (buildsvc lifecycle_undelete.go).

// undeletePackage restores a deleted package with a revision of its last tree.
func (a *api) undeletePackage(c *fiber.Ctx) error {
	err := a.Svc.UndeletePackage(personOf(c), pathParam(c, "project"), pathParam(c, "package"), strings.Clone(c.Query("comment")))
	if err != nil {
		return err
	}
	return sendOK(c)
}

// undeleteProject restores a deleted project with the packages deleted with it.
func (a *api) undeleteProject(c *fiber.Ctx) error {
	if err := a.Svc.UndeleteProject(personOf(c), pathParam(c, "project"), strings.Clone(c.Query("comment"))); err != nil {
		return err
	}
	return sendOK(c)
}
