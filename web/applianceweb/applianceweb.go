// Package applianceweb is the operator's page of the web interface, behind the bootstrap token:
// what /_appliance offers over JSON, in a browser. Routes (all under web.CheckCSRF):
//
//	GET  /appliance                the sign-in form, or (signed in) readiness, the clock with its
//	                               controls (--dev-clock), snapshot download, reset and reseed
//	POST /appliance/signin         check the pasted token (appliancesvc, with its per-IP throttle)
//	POST /appliance/signout        end the session
//	GET  /appliance/requests       the request journal; filters api, method, path, status, limit
//	GET  /appliance/outbox         the e-mails the APIs sent; filters to, limit
//	GET  /appliance/outbox/{id}    one e-mail
//	POST /appliance/clock          move the clock: one of advance, now, offset (--dev-clock)
//	GET  /appliance/snapshot       stream a consistent snapshot of the data file
//	GET  /appliance/{reset,reseed} the confirm step; POST does it and runs the replace hook
//
// Every operation is appliancesvc's, the same the JSON endpoints call. Sessions live in memory
// (a restart signs the operator out); the token is never stored in a cookie.
package applianceweb

import (
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/appliancesvc"
	"github.com/pocketforge/pocketforge/web"
)

// Deps is what the appliance page works on. The journal and readiness belong to the HTTP layer
// (api/kit), which this package must not import: the app hands them over as funcs.
type Deps struct {
	Site *web.Site
	// Appliance is the operator's domain, the one /_appliance uses (token and throttle, clock,
	// reset, reseed, snapshot, outbox).
	Appliance *appliancesvc.Service
	// ClientIP is the address a request is counted under by the token throttle (the same
	// rule /_appliance uses, --trusted-proxies).
	ClientIP func(c *fiber.Ctx) string
	// Checks are the readiness conditions /_appliance/readyz reports.
	Checks func() []web.Check
	// Requests lists the request journal, newest first, and says how many entries it keeps.
	Requests func(f Filter) (list []Request, capacity int)
	Log      *slog.Logger
}

// Filter selects journal entries as GET /_appliance/requests does; zero values match all.
type Filter struct {
	API, Method string
	PathPrefix  string
	// Status is one status (404) or a class (4 for 4xx).
	Status int
	Limit  int
}

// Request is one journal entry as the page shows it.
type Request struct {
	ID                string
	Time              time.Time
	API, Method, Path string
	Query             string
	Status            int
	DurationMS        float64
	RemoteIP          string
	UserAgent         string
	BytesIn, BytesOut int
	// User is who the request authenticated as, if anyone.
	User string
	// Curl replays the request, credentials masked.
	Curl string
}

// handlers holds Deps and the sessions.
type handlers struct {
	Deps
	sessions *sessions
}

// Bind registers the appliance page's routes on app.
func Bind(app fiber.Router, d Deps) {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	h := &handlers{Deps: d, sessions: newSessions(time.Now)}
	g := app.Group("/appliance", web.CheckCSRF)
	g.Get("", h.home)
	g.Post("/signin", h.signIn)
	g.Post("/signout", h.signOut)
	auth := g.Group("", h.signedIn)
	auth.Get("/requests", h.requests)
	auth.Get("/outbox", h.outbox)
	auth.Get("/outbox/:id", h.mail)
	auth.Post("/clock", h.moveClock)
	auth.Get("/snapshot", h.snapshot)
	auth.Get("/reset", h.confirm)
	auth.Get("/reseed", h.confirm)
	auth.Post("/reset", h.reset)
	auth.Post("/reseed", h.reseed)
}
