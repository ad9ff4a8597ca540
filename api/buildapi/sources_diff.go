package buildapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
)

// cmd=diff: the backend's source diff as text/plain, what osc rdiff prints (buildsvc.Service.Diff
// makes it). filelimit, tarlimit and unified are accepted and ignored.

// diffPackage compares oproject/opackage at ?orev= (old side) with this package at ?rev= (new
// side), expanded with ?expand=1 against ?linkrev= and ?olinkrev=.
func (a *api) diffPackage(c *fiber.Ctx) error {
	oproject, opackage := otherPackage(c)
	text, err := a.Svc.Diff(personOf(c), pathParam(c, "project"), pathParam(c, "package"), buildsvc.DiffOptions{
		OldProject: oproject, OldPackage: opackage, Rev: c.Query("rev"), OldRev: c.Query("orev"),
		Expand: boolParam(c, "expand"), LinkRev: c.Query("linkrev"), OldLinkRev: c.Query("olinkrev")})
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	return c.SendString(text)
}
