package admin

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/apidocs"
)

// bindDocs serves the API documents under /openapi without the bootstrap token: they describe
// the public APIs (the cloud one is the real service's public document), hold no data of the
// store, and the public /docs page links to them; code generators and contract tests in a
// pipeline fetch them with no secret to hand out.
func (h *handlers) bindDocs(r fiber.Router) {
	for _, d := range apidocs.Documents {
		doc := d.YAML()
		r.Get("/openapi/"+d.Name+".yaml", func(c *fiber.Ctx) error {
			c.Set(fiber.HeaderContentType, "application/yaml; charset=utf-8")
			c.Set(fiber.HeaderCacheControl, "no-cache")
			return c.Send(doc)
		})
	}
	r.Get("/openapi/build.txt", func(c *fiber.Ctx) error {
		var list []apidocs.BuildRoute
		if h.BuildRoutes != nil {
			list = h.BuildRoutes()
		}
		c.Set(fiber.HeaderContentType, fiber.MIMETextPlainCharsetUTF8)
		c.Set(fiber.HeaderCacheControl, "no-cache")
		return c.Send(apidocs.BuildText(list))
	})
}
