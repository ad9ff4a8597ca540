package api

import (
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/apidocs"
)

// boundRoutes lists the routes bound on app whose paths belong to the API named area (as
// areaOf decides, the build proxy's prefix counting as the explorer's), without the HEAD route
// fiber adds beside every GET and without middleware (Use).
func boundRoutes(app *fiber.App, d *Deps, area string) []apidocs.Route {
	var out []apidocs.Route
	for _, r := range app.GetRoutes(true) {
		if r.Method == fiber.MethodHead || d.areaOf(r.Path).name != area {
			continue
		}
		out = append(out, apidocs.Route{Method: r.Method, Path: r.Path})
	}
	return out
}

// buildRouteList is the build API's route list with its documents, read from app's routes on
// first use (after every route is bound) and kept: routes are not added while serving.
func buildRouteList(app *fiber.App, d *Deps) func() []apidocs.BuildRoute {
	return sync.OnceValue(func() []apidocs.BuildRoute {
		return apidocs.BuildRoutes(boundRoutes(app, d, "build"))
	})
}
