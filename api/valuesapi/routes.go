// Package valuesapi serves the deployment values of the load-balancer chart over HTTP under
// /deploy/values: the schema, the default values, and validation of a values file — the same
// answers as `pocketforge values`, for tools and CI jobs that would rather POST than exec. It
// needs no data file and no sign-in, and it sits outside the explorer's rate-limited /api: the
// spec gives the values no authentication scheme and no limits of their own.
package valuesapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
)

// Prefixes are the paths this API owns; errors under them are rendered by RenderError.
var Prefixes = []string{"/deploy"}

// RenderError writes err as {"error": "…"}, the explorer's format: the values came with the
// explorer's spec, so its clients read one error shape.
func RenderError(c *fiber.Ctx, err error) error { return kit.RenderSimple(c, err) }

// Bind registers every route of the deployment-values API.
func Bind(app fiber.Router) {
	h := newHandlers()
	g := app.Group("/deploy/values")
	g.Get("/schema.json", h.schema)
	g.Get("/defaults.yaml", h.defaults)
	g.Post("/validate", kit.WithBody, h.validate) // a document of at most kit.DocumentBody (api's bodyCap)
}
