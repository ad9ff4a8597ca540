package buildapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
)

// Build control: POST /build/<project>?cmd=rebuild|abortbuild|restartbuild|wipe|unpublish with
// repeatable package, repository, arch and code filters (none: the whole project), and the
// package commands POST /source/<p>/<k>?cmd=rebuild|wipe (optional repository, arch).

func (a *api) controlBuilds(c *fiber.Ctx) error {
	f := farm.BuildFilter{Packages: queryAll(c, "package"), Repositories: queryAll(c, "repository"),
		Archs: queryAll(c, "arch"), Codes: queryAll(c, "code")}
	if err := a.Farm.ControlBuilds(personOf(c), pathParam(c, "project"), c.Query("cmd"), f); err != nil {
		return err
	}
	return sendOK(c)
}

// packageControl runs the package command rebuild or wipe on the package's builds.
func (a *api) packageControl(c *fiber.Ctx, cmd string) error {
	err := a.Farm.ControlPackageBuilds(personOf(c), pathParam(c, "project"), pathParam(c, "package"), cmd,
		queryAll(c, "repository"), queryAll(c, "arch"))
	if err != nil {
		return err
	}
	return sendOK(c)
}
