// Package docsweb is the web interface's API documentation page, /docs: for the cloud and
// explorer APIs the operations of their OpenAPI documents (method, path, summary) grouped by
// tag, for the build API its bound routes with the XML documents they take and answer, each with
// a link to the raw document under /_appliance/openapi. Everything is drawn on the server from
// the documents embedded in the binary (package apidocs): no script, no stylesheet or viewer
// from elsewhere, so an air-gapped install has its documentation too.
//
// Routes: GET /docs.
package docsweb

import (
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/apidocs"
	"github.com/pocketforge/pocketforge/web"
)

// Deps is what the docs page needs.
type Deps struct {
	Site *web.Site
	// BuildRoutes lists the build API's bound routes with their documents (the app's, as
	// /_appliance/openapi/build.txt serves them); nil shows none.
	BuildRoutes func() []apidocs.BuildRoute
}

// Bind registers the docs page on app.
func Bind(app fiber.Router, d Deps) {
	h := &handlers{Deps: d}
	app.Get("/docs", h.page)
}

type handlers struct{ Deps }

// view is the page's data.
type view struct {
	APIs  []apiView
	Build []apidocs.BuildRoute
}

// apiView is one OpenAPI document as the page lists it.
type apiView struct {
	Name, Title, Version, Description string
	Groups                            []group
	Count                             int
}

// group is the operations of one tag.
type group struct {
	Tag, Description string
	Operations       []apidocs.Operation
}

// documents parses the embedded documents once; they cannot change while the binary runs.
var documents = sync.OnceValues(func() ([]apiView, error) {
	var out []apiView
	for _, d := range apidocs.Documents {
		ix, err := apidocs.Parse(d.YAML())
		if err != nil {
			return nil, err
		}
		out = append(out, apiView{Name: d.Name, Title: d.Title, Version: ix.Version,
			Description: ix.Description, Groups: groupByTag(ix), Count: len(ix.Operations)})
	}
	return out, nil
})

// groupByTag groups ix's operations by their first tag, in the document's order of tags; tags
// the document does not list come after, and untagged operations last.
func groupByTag(ix *apidocs.Index) []group {
	byTag := map[string][]apidocs.Operation{}
	var order []string
	for _, t := range ix.Tags {
		order = append(order, t.Name)
	}
	for _, op := range ix.Operations {
		if _, ok := byTag[op.Tag]; !ok && !listed(ix.Tags, op.Tag) {
			order = append(order, op.Tag)
		}
		byTag[op.Tag] = append(byTag[op.Tag], op)
	}
	var out []group
	for _, name := range order {
		if ops := byTag[name]; len(ops) > 0 {
			g := group{Tag: name, Operations: ops}
			for _, t := range ix.Tags {
				if t.Name == name {
					g.Description = t.Description
				}
			}
			if g.Tag == "" {
				g.Tag = "Other"
			}
			out = append(out, g)
			delete(byTag, name)
		}
	}
	return out
}

func listed(tags []apidocs.Tag, name string) bool {
	for _, t := range tags {
		if t.Name == name {
			return true
		}
	}
	return false
}

// page draws the documentation.
func (h *handlers) page(c *fiber.Ctx) error {
	apis, err := documents()
	if err != nil {
		return err // an embedded document that does not parse: a 500, and a failing test
	}
	v := view{APIs: apis}
	if h.BuildRoutes != nil {
		v.Build = h.BuildRoutes()
	}
	return h.Site.Render(c, fiber.StatusOK, "API documentation", web.SectionDocs, web.PageOf(docsPage, v))
}
