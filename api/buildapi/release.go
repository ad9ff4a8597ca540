package buildapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
)

// POST /source/P?cmd=release and POST /source/P/K?cmd=release: buildsvc.Service.Release copies
// sources and built binaries into the release targets.

// releaseCmd answers cmd=release of a project (pkg "") or a package. A project release also
// takes OBS's targetproject/targetrepository spelling of the target parameters.
func (a *api) releaseCmd(c *fiber.Ctx, pkg string) error {
	req := farm.ReleaseRequest{Project: pathParam(c, "project"), Package: pkg,
		Repository: strings.Clone(c.Query("repository")), Arch: strings.Clone(c.Query("arch")),
		TargetProject: strings.Clone(c.Query("target_project")), TargetRepository: strings.Clone(c.Query("target_repository")),
		SetRelease: strings.Clone(c.Query("setrelease")), Comment: strings.Clone(c.Query("comment"))}
	if pkg == "" && req.TargetProject == "" && req.TargetRepository == "" {
		req.TargetProject, req.TargetRepository = strings.Clone(c.Query("targetproject")), strings.Clone(c.Query("targetrepository"))
	}
	if err := a.Farm.Release(personOf(c), req); err != nil {
		return err
	}
	return sendOK(c)
}
