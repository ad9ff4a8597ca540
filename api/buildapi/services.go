package buildapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
)

// The source-service package commands (buildsvc/services.go): runservice and mergeservice commit
// (with ?comment=) and answer ok, waitservice answers ok once the services are done (at once
// here), servicediff answers the generated files' diff as text/plain.
func (a *api) serviceCmd(c *fiber.Ctx, cmd string) error {
	who, project, pkg := personOf(c), pathParam(c, "project"), pathParam(c, "package")
	comment := strings.Clone(c.Query("comment"))
	var err error
	switch cmd {
	case "runservice":
		err = a.Svc.RunServices(who, project, pkg, comment)
	case "waitservice":
		err = a.Svc.WaitServices(who, project, pkg)
	case "mergeservice":
		err = a.Svc.MergeServices(who, project, pkg, comment)
	case "servicediff":
		text, err := a.Svc.ServiceDiff(who, project, pkg, strings.Clone(c.Query("rev")))
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
		return c.SendString(text)
	}
	if err != nil {
		return err
	}
	return sendOK(c)
}
