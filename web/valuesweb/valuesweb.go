// Package valuesweb is the values validator of the web interface: paste a values file of the
// load-balancer chart (YAML or JSON) or upload one, and see every violation with its path —
// the same validator (package values) as `pocketforge values validate` and POST
// /deploy/values/validate. Routes (under web.CheckCSRF):
//
//	GET  /values   the form: a textarea, a file upload, "validate alone" (no defaults)
//	POST /values   validate (form or multipart); the violations with their paths, or "valid"
//	               with the values as validated (merged over the defaults)
//
// Input is bounded: the app's body limit refuses a huge request before it is read, and a
// document over values.MaxSize (1 MiB) or one that is not YAML or JSON text (a binary upload)
// is answered with the form and a sentence saying so.
package valuesweb

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/web"
)

// Deps is what the values pages need: only the site (the validator needs no data).
type Deps struct {
	Site *web.Site
}

// Bind registers the values validator's routes on app.
func Bind(app fiber.Router, d Deps) {
	h := &handlers{site: d.Site}
	g := app.Group("/values", web.CheckCSRF)
	g.Get("", h.form)
	g.Post("", h.validate)
}

// handlers hold the site the pages are drawn in.
type handlers struct{ site *web.Site }
