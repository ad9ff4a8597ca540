// Package explorerweb is the repository explorer's part of the web interface: server-rendered
// pages over the explorer's domain (explorersvc), called directly — the web interface is never
// rate-limited, so it never goes through /api.
//
// Routes (all GET):
//
//	/explorer?kind=packages|files|git|binaries&q=…[&page=N]
//	    one search page with a tab per search: package names (what /api/products/packages
//	    answers), files by exact path or basename (/api/products/files), git references
//	    (/api/products/vcs-search) and published binaries (/api/search/binary); at most
//	    pageSize hits a page, with links to the next and previous pages.
//	/explorer/packages/<name>[?org=…]
//	    a package: its entries across products (each linked to its build's results and log
//	    when the appliance's build service built it in a followed project), its git
//	    references, the branches and fork builds of its git repository (org: the domain's
//	    default when absent) and its published binaries; 404 when neither a product nor the
//	    git host knows it.
//
// A search term the domain refuses (a file search under two characters, a git term of no
// form) is shown on the page, in the domain's words, with status 400 — as the API answers.
package explorerweb

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/web"
)

// Deps is what the explorer's pages need.
type Deps struct {
	Site *web.Site
	// Explorer is the explorer's domain, the same service the API calls.
	Explorer *explorersvc.Service
}

type handlers struct{ Deps }

// Bind registers the explorer's pages. They only read (GET forms), so they carry no CSRF
// token and need no CSRF check.
func Bind(app fiber.Router, d Deps) {
	h := &handlers{Deps: d}
	app.Get("/explorer", h.search)
	app.Get("/explorer/packages/:name", h.pkg)
}
