package explorerapi

import (
	"net/netip"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
)

// Deps is what the explorer API works on.
type Deps struct {
	// Explorer is the explorer's domain: imports, the index, the searches.
	Explorer *explorersvc.Service
	// Rate is the per-IP limit on /api and the proxy; Max 0 turns it off.
	Rate           config.Rate
	TrustedProxies []netip.Prefix
	Limiter        *ratelimit.Limiter
	// Proxy is the read-only build proxy; off without a Backend or a Prefix.
	Proxy Proxy
	// ExternalURL is the base of the absolute URLs the badges link to (--external-url).
	ExternalURL func() string
}

type api struct {
	Deps
	badgeCache badgeCache
}

// Bind registers the explorer's routes: the JSON API under /api and the build proxy under
// Proxy.Prefix, both rate-limited per client IP.
func Bind(app fiber.Router, d Deps) {
	a := &api{Deps: d}
	apis := app.Group("/api", a.limit)
	apis.Get("/products/packages", a.searchPackages)
	apis.Get("/products/files", a.searchFiles)
	apis.Get("/products/vcs-search", a.searchVCS)
	apis.Get("/projects/:project/_result", a.projectResults)
	apis.Get("/backend-config", a.backendConfig)
	apis.Get("/packages/:package/branches", a.branches).Get("/packages/:package/fork-builds", a.forkBuilds)
	apis.Get("/search/binary", a.searchBinaries)
	// Badges are not rate-limited (the seed's limit covers /api and the proxy), and every
	// address under /badge answers a badge.
	app.Get("/badge", a.badge).Get("/badge/*", a.badge)
	if d.Proxy.Backend != nil && d.Proxy.Prefix != "" {
		// All, not Use: fiber's Use would also take /obsx, a path of nobody's.
		serve := newProxy(d.Proxy).serve
		app.All(d.Proxy.Prefix, a.limit, serve)
		app.All(d.Proxy.Prefix+"/*", a.limit, serve)
	}
}
