package explorerapi

import (
	"log/slog"
	"net/netip"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store"
)

// Deps is what the explorer API works on.
type Deps struct {
	Store    *store.DB
	Importer *Importer
	Log      *slog.Logger
	Now      func() time.Time
	// Rate is the per-IP limit on /api and the proxy; Max 0 turns it off.
	Rate           config.Rate
	TrustedProxies []netip.Prefix
	Limiter        *ratelimit.Limiter
	// SPDXDir is followed by a clock job every SPDXInterval ("" for none).
	SPDXDir      string
	SPDXInterval time.Duration
	Jobs         *jobs.Runner
}

type api struct {
	Deps
	watch *watcher
}

// Bind registers the explorer's routes: the JSON API under /api (rate-limited per client IP).
func Bind(app fiber.Router, d Deps) {
	a := &api{Deps: d}
	apis := app.Group("/api", a.limit)
	apis.Get("/products/packages", a.searchPackages)
	apis.Get("/products/files", a.searchFiles)
	apis.Get("/products/vcs-search", a.searchVCS)
	if d.SPDXDir != "" && d.Jobs != nil {
		a.watch = &watcher{dir: d.SPDXDir, every: d.SPDXInterval, importer: d.Importer, log: d.Log}
		d.Jobs.Add("explorer-spdx-dir", a.watch.run)
	}
}
