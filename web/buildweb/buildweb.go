// Package buildweb is the web interface's build area: build results, the live build monitor,
// the log popup the badge table opens, and read-only views of the build service's sources and
// requests. Every page reads through the same domain functions the APIs use, as an anonymous
// non-member (the zero buildstore.Person), so a project hidden by <access><disable/> is a 404
// page exactly as the API's 404; the monitor and the project list read the explorer's results
// cache, the data the badges draw from, so a badge's colour and the monitor's never disagree.
//
// Routes (all GET):
//
//	/projects                                        the followed projects with their badges
//	/projects/<p>                                    project page: meta, packages, badge and table
//	/projects/<p>/monitor[?package=&state=&repo=&arch=&page=]  the monitor matrix
//	/projects/<p>/monitor/table[?…&v=]               the matrix alone, for monitor.js (204 when v is current)
//	/projects/<p>/packages/<k>                       package page: files, results, build chart
//	/projects/<p>/packages/<k>/history               source revisions
//	/projects/<p>/packages/<k>/revisions/<rev>       one revision's files
//	/projects/<p>/packages/<k>/diff[?rev=]           the revision's diff against the one before
//	/projects/<p>/packages/<k>/files/<name>[?rev=]   one source file as text
//	/projects/<p>/packages/<k>/logs/<repo>/<arch>    the log popup (web.LogURL);
//	                                                 ?raw=1&offset=N: the log from N as text, for logtail.js
//	/change-requests[?state=&project=]               requests, newest first
//	/change-requests/<id>                            a request: actions, state, reviews, history
package buildweb

import (
	"net/url"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/web"
)

// Deps is what the build pages read.
type Deps struct {
	Site *web.Site
	// Build is the build service (domains.NewBuild): project and package meta, sources (its
	// core), logs and jobs (Build.Farm), requests (Build.Requests).
	Build *domains.Build
	// Explorer holds the results cache the monitor and the badges read.
	Explorer *explorersvc.Service
}

// anonymous is who every page reads as: nobody signed in, a member of nothing. The web
// interface has no build-service sign-in, so it sees what the API shows an outsider.
var anonymous buildstore.Person

// handlers are the area's routes over d.
type handlers struct{ Deps }

// Bind registers the build area's pages (behind web.CheckCSRF, though every page is a read).
func Bind(app fiber.Router, d Deps) {
	h := &handlers{d}
	g := app.Group("/projects", web.CheckCSRF)
	g.Get("/", h.projects)
	g.Get("/:project", h.guard(h.project))
	g.Get("/:project/monitor", h.guard(h.monitor))
	g.Get("/:project/monitor/table", h.guard(h.monitorTable))
	g.Get("/:project/packages/:package", h.guard(h.pkg))
	g.Get("/:project/packages/:package/history", h.guard(h.history))
	g.Get("/:project/packages/:package/revisions/:rev", h.guard(h.revision))
	g.Get("/:project/packages/:package/diff", h.guard(h.diff))
	g.Get("/:project/packages/:package/files/:name", h.guard(h.file))
	g.Get("/:project/packages/:package/logs/:repository/:arch", h.guard(h.log))
	// Not /requests: the build API's middleware on /request (fiber's Use matches a bare prefix)
	// would claim it and ask for credentials.
	r := app.Group("/change-requests", web.CheckCSRF)
	r.Get("/", h.requests)
	r.Get("/:id", h.request)
}

// guard runs next after the build service's project guard, as the build API runs it on every
// route that names a project: a project hidden from an outsider is a 404, as if it did not
// exist, whatever the page would read of it.
func (h *handlers) guard(next fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if err := h.Build.GuardProject(anonymous, param(c, "project")); err != nil {
			return err
		}
		return next(c)
	}
}

// param is a path parameter percent-decoded (home%3Aalice and home:alice name the same
// project; a%2Fb stays one name).
func param(c *fiber.Ctx, name string) string {
	raw := c.Params(name)
	if s, err := url.PathUnescape(raw); err == nil {
		return s
	}
	return raw
}

// render writes a page of the area in the Projects section.
func (h *handlers) render(c *fiber.Ctx, title string, page web.Page) error {
	return h.Site.Render(c, fiber.StatusOK, title, web.SectionProjects, page)
}

// renderRequests writes a page of the requests, their own section of the navigation.
func (h *handlers) renderRequests(c *fiber.Ctx, title string, page web.Page) error {
	return h.Site.Render(c, fiber.StatusOK, title, web.SectionRequests, page)
}

// projectURL is the address of a project's page; the others hang below it.
func projectURL(project string) string { return "/projects/" + url.PathEscape(project) }

// packageURL is the address of a package's page.
func packageURL(project, pkg string) string {
	return projectURL(project) + "/packages/" + url.PathEscape(pkg)
}

// requestURL is the address of a request's page.
func requestURL(id uint64) string { return "/change-requests/" + strconv.FormatUint(id, 10) }
