// Package admin serves /_appliance: health for orchestrators (livez, readyz), and the operator's
// controls — snapshot and restore, reset and reseed, the request journal, the outbox, the
// clock and fault injection — and the API documents (openapi/). Everything but livez, readyz
// and the documents needs the bootstrap token.
package admin

import (
	"log/slog"
	"net/netip"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/chaos"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/apidocs"
	"github.com/pocketforge/pocketforge/appliancesvc"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/store"
)

// Deps is what the appliance endpoints work on.
type Deps struct {
	Store   *store.DB
	Clock   *clock.Settable
	Ready   *kit.Readiness
	Journal *kit.Journal
	Log     *slog.Logger
	// RestoreLimit caps the size of an uploaded snapshot (the request body limit).
	RestoreLimit int64
	// Appliance is the operator's domain: the bootstrap token under its throttle, the clock,
	// reset, reseed, restore, snapshot and outbox: the one the app builds with its replace hook
	// and shares with the appliance page.
	Appliance *appliancesvc.Service
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names the client
	// (--trusted-proxies): wrong tokens are counted per client (kit.ClientIP).
	TrustedProxies []netip.Prefix
	// Chaos holds the fault and latency injection rules (/_appliance/chaos); nil: Bind makes
	// one, which no request consults.
	Chaos *chaos.Injector
	// Mount adds more operator routes (the explorer's imports) behind the same token check.
	Mount []func(auth fiber.Router)
	// BuildRoutes lists the build API's bound routes with their documents for
	// /openapi/build.txt; nil serves an empty list.
	BuildRoutes func() []apidocs.BuildRoute
}

// handlers holds Deps for the route handlers.
type handlers struct{ Deps }

// Bind registers every /_appliance route on r, in one place.
func Bind(r fiber.Router, d Deps) {
	if d.Appliance == nil {
		panic("admin.Bind: no appliance domain (api.New builds it with the app's replace hook)")
	}
	if d.Chaos == nil {
		d.Chaos = chaos.New()
	}
	h := &handlers{Deps: d}
	r.Get("/livez", h.livez)
	r.Get("/readyz", h.readyz)
	h.bindDocs(r)

	auth := r.Group("", h.requireToken)
	auth.Get("/snapshot", h.snapshot)
	auth.Post("/restore", h.restore)
	auth.Post("/reset", h.reset)
	auth.Post("/reseed", h.reseed)
	auth.Get("/requests", h.listRequests)
	auth.Delete("/requests", h.clearRequests)
	auth.Get("/outbox", h.listOutbox)
	auth.Delete("/outbox", h.clearOutbox)
	auth.Get("/clock", h.getClock)
	auth.Post("/clock", h.setClock)
	auth.Get("/chaos", h.getChaos)
	auth.Put("/chaos", h.putChaos)
	auth.Post("/chaos", h.addChaos)
	auth.Delete("/chaos", h.clearChaos)
	for _, m := range d.Mount {
		m(auth)
	}
}
