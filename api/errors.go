package api

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/buildapi"
	"github.com/pocketforge/pocketforge/api/cloudapi"
	"github.com/pocketforge/pocketforge/api/deploy"
	"github.com/pocketforge/pocketforge/api/explorerapi"
	"github.com/pocketforge/pocketforge/api/kit"
)

// area is one API as far as routing of errors and the journal go.
type area struct {
	name     string
	prefixes []string
	render   func(c *fiber.Ctx, err error) error
}

// areas decides which API a path belongs to, so that every error — a handler's, fiber's 404 and
// 405, a body over the limit, a panic — is answered in that API's own format: JSON errors under
// /v4, a <status> document under /source, {"error"} under /api.
var areas = []area{
	{"appliance", []string{"/_appliance"}, kit.RenderSimple},
	{"cloud", cloudapi.Prefixes, cloudapi.RenderError},
	{"build", buildapi.Prefixes, buildapi.RenderError},
	{"explorer", explorerapi.Prefixes, explorerapi.RenderError},
	{"deploy", deploy.Prefixes, deploy.RenderError},
}

// other serves paths no API owns (the web interface's, later).
var other = area{name: "web", render: kit.RenderSimple}

// areaOf returns the API that owns path.
func areaOf(path string) *area {
	for i := range areas {
		for _, p := range areas[i].prefixes {
			if strings.HasPrefix(path, p) && (len(path) == len(p) || path[len(p)] == '/') {
				return &areas[i]
			}
		}
	}
	return &other
}

// renderError is the app's fiber.ErrorHandler.
func renderError(c *fiber.Ctx, err error) error {
	return areaOf(c.Path()).render(c, err)
}
