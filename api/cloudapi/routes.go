package cloudapi

import (
	"github.com/gofiber/fiber/v2"
)

// prefixes a route is served under (the seed's Versioning section).
type prefixes int

const (
	both       prefixes = iota // /v4 and /v4beta
	stableOnly                 // /v4 only
	betaOnly                   // /v4beta only
)

// routes registers cloud routes under the version prefixes.
type routes struct {
	a        *api
	v4, beta fiber.Router
}

// add registers one route: its prefixes, method, path, guard (scope area, who may call, rate
// limit, deprecation) and handler.
func (r *routes) add(on prefixes, method, path string, acc access, h fiber.Handler) {
	r.addAliased(on, method, path, nil, acc, h)
}

// addAliased registers one route under its path and under other paths that mean the same
// endpoint (the real service's names for it); they share the route's guard, so scope, grants
// and rate-limit bucket are the path's, whichever name a client uses.
func (r *routes) addAliased(on prefixes, method, path string, aliases []string, acc access, h fiber.Handler) {
	guard := r.a.guard(method, path, acc)
	for _, p := range append([]string{path}, aliases...) {
		if on != betaOnly {
			r.v4.Add(method, p, guard, h)
		}
		if on != stableOnly {
			r.beta.Add(method, p, guard, h)
		}
	}
}

// account is the guard of an account-area endpoint.
func account(w who) access { return access{area: "account", who: w} }

// Bind registers every route of the cloud API: one bindXxx per resource group, each in the file
// of its group, all called here. The login server (/oauth) is bound by bindOAuth. Background
// jobs (invoices, transfer expiry, database states) are the cloud domain's: serve registers
// them (cloudsvc.Service.RegisterJobs).
func Bind(app fiber.Router, d Deps) {
	a := newAPI(d)
	r := &routes{a: a, v4: app.Group("/v4", preflight), beta: app.Group("/v4beta", preflight)}
	a.bindUsers(r)
	a.bindOAuthClients(r)
	a.bindProfile(r)
	a.bindAccount(r)
	a.bindEvents(r)
	a.bindBilling(r)
	a.bindTransfers(r)
	a.bindDatabases(r)
	a.bindInstanceTypes(r)
	a.bindMonitoringPlan(r)
	a.bindOAuth(app)
	app.Get("/survey/cancel", a.cancelSurvey)
}

// preflight answers CORS preflight requests for every path (a middleware, not an OPTIONS route,
// so that an unknown path stays a 404 rather than becoming a 405).
func preflight(c *fiber.Ctx) error {
	if c.Method() != fiber.MethodOptions {
		return c.Next()
	}
	corsHeaders(c)
	return c.SendStatus(fiber.StatusOK)
}
