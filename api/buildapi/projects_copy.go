package buildapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
)

// copyProject runs cmd=copy on a project (POST /source/P?cmd=copy&oproject=O; buildsvc
// copy_project.go says what is copied and who may). The real service queues the copy and
// answers "invoked" unless nodelay is given; here it is done when the answer comes, so it is
// always "ok". noservice is accepted (there are no source services to skip).
func (a *api) copyProject(c *fiber.Ctx) error {
	err := a.Svc.CopyProject(personOf(c), buildsvc.CopyProjectRequest{Project: pathParam(c, "project"),
		OProject: strings.Clone(c.Query("oproject")), Comment: strings.Clone(c.Query("comment")),
		WithHistory: boolParam(c, "withhistory"), WithBinaries: c.Query("withbinaries") != "",
		Resign: c.Query("resign") != "", MakeOlder: c.Query("makeolder") != "" || c.Query("makeoriginolder") != ""})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// moveProject is POST /source/<project>?cmd=move&oproject=<old>[&comment=]: the farm moves the
// old project under the URL's name (Admin only; see farm.MoveProject).
func (a *api) moveProject(c *fiber.Ctx) error {
	err := a.Farm.MoveProject(personOf(c), farm.MoveRequest{Project: pathParam(c, "project"),
		OProject: strings.Clone(c.Query("oproject")), Comment: strings.Clone(c.Query("comment"))})
	if err != nil {
		return err
	}
	return sendOK(c)
}
