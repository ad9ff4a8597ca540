package buildapi

import (
	"github.com/gofiber/fiber/v2"
)

// Bind registers every route of the build API: one bindXxx per resource group, all called here.
// Every route needs an authenticated person (the seed's rule), checked by a.authenticated.
func Bind(app fiber.Router, d Deps) {
	if d.Build == nil {
		panic("buildapi.Bind: no build domain (domains.NewBuild makes it)")
	}
	a := &api{Deps: d, Svc: d.Build.Service, Farm: d.Build.Farm, Requests: d.Build.Requests, Search: d.Build.Search,
		sessions: newSessionStore()}
	a.bindAbout(app)
	a.bindInstance(app)
	a.bindPeople(app)
	a.bindAttributes(app)
	a.bindComments(app)
	a.bindTags(app) // before the source routes: …/_tags is not a package or a file
	a.bindStatistics(app)
	a.bindMessages(app)
	a.bindSources(app)
	a.bindFiles(app)
	a.bindSearch(app)
	a.bindRequests(app)
	a.bindRequestCollection(app)
	a.bindTrigger(app)
	// The binary routes first: their literal names (_buildconfig, _repository, …) must win
	// over the directory routes' parameters; names starting with _ they do not serve (_log,
	// _status, …) they pass on to bindBuild's.
	a.bindBuildBinaries(app)
	a.bindPublished(app)
	a.bindBuild(app)
	// Last: a path no route above took still needs credentials before it hears 404 or 405, so
	// that without them every build path answers the Basic challenge osc waits for, whether or
	// not the appliance serves it yet; under /trigger, where a token is the only credential,
	// the token routes' own refusal.
	for _, p := range Prefixes {
		if p == "/trigger" {
			app.Use(p, a.tokenPresented)
			continue
		}
		app.Use(p, a.authenticated)
	}
}

// tokenPresented lets a request on to 404 or 405 only with a Token header; the token itself is
// checked by the routes that use it, and there are none here.
func (a *api) tokenPresented(c *fiber.Ctx) error {
	c.Set("X-Opensuse-APIVersion", APIVersion)
	if _, ok := tokenFromHeader(c.Get(fiber.HeaderAuthorization)); !ok {
		return errNoTokenHeader
	}
	return c.Next()
}

// get registers an authenticated GET route.
func (a *api) get(r fiber.Router, path string, h fiber.Handler) { r.Get(path, a.authenticated, h) }
