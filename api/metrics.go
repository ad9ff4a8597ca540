package api

import (
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/internal/metrics"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
)

// bindMetrics has d.metrics read the domains, the store and limiters at scrape time, serves
// them at /metrics when --public-metrics is on, and returns the binding of
// /_appliance/metrics, which admin mounts behind the bootstrap token.
//
// /metrics is open because no API owns the path (areas gives it to the appliance: never
// journaled, not held back while starting) and a scraper that needed the bootstrap token would
// hold a credential that can reset or replace all data; what it shows is counts by route
// pattern, sizes and states — no path, name or credential. --public-metrics=false removes it
// for an appliance reachable by people who should not see even that.
func bindMetrics(app *fiber.App, cfg *config.Config, d Deps, limiters map[string]*ratelimit.Limiter) func(fiber.Router) {
	d.metrics.Watch(metrics.Sources{
		Store: d.Store, Farm: d.Build, Index: d.Explorer, Limiters: limiters,
		SignIns: map[string]func() ratelimit.Counts{
			"cloud": d.Cloud.SignInCounts, "build": d.Build.SignInCounts, "appliance": d.appliance.TokenGuessCounts,
		},
	})
	serve := adaptor.HTTPHandler(d.metrics.Handler())
	if cfg.PublicMetrics {
		app.Get(publicMetricsPath, serve)
	}
	return func(auth fiber.Router) { auth.Get("/metrics", serve) }
}

// publicMetricsPath is where Prometheus looks by default.
const publicMetricsPath = "/metrics"
