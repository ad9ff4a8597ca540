package api

import (
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/pocketforge/pocketforge/api/metrics"
	"github.com/pocketforge/pocketforge/config"
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
		Store: d.Store, Leader: d.Domains.Leader, Farm: d.Domains.Build.Farm, Index: d.Domains.Explorer, Limiters: limiters,
		SignIns: map[string]func() ratelimit.Counts{
			"cloud": d.Domains.Cloud.SignInCounts, "build": d.Domains.Build.SignInCounts, "appliance": d.appliance.TokenGuessCounts,
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

// requestSeries counts each request into its metrics series (metrics.Series), resolved once per
// route, API area, method and status and kept: the label values of a route never change, and
// their number is bounded by the routes, the methods counted by name and the statuses. The
// kept ones are a map that is replaced, never changed, when a new kind of request shows up, so
// a request reads it without a lock.
type requestSeries struct {
	m    *metrics.Metrics
	mu   sync.Mutex // held while a new series is added
	seen atomic.Pointer[map[seriesKey]*metrics.Series]
}

// seriesKey tells series apart; its strings are constants (area names, metrics.MethodLabel),
// never a view of a request's buffer. route is nil for a request no route handled (fiber hands
// out a new stand-in route for each such request).
type seriesKey struct {
	route  *fiber.Route
	api    string
	method string
	status int
}

// observe counts c's request of area api, answered with status after took.
func (rs *requestSeries) observe(c *fiber.Ctx, api string, status int, took time.Duration) {
	k := seriesKey{route: c.Route(), api: api, method: metrics.MethodLabel(c.Method()), status: status}
	if len(k.route.Handlers) == 0 {
		k.route = nil
	}
	if seen := rs.seen.Load(); seen != nil {
		if s, ok := (*seen)[k]; ok {
			s.Observe(took)
			return
		}
	}
	rs.add(k, routeOf(c)).Observe(took)
}

// add resolves k's series, whose route label is route, and keeps it.
func (rs *requestSeries) add(k seriesKey, route string) *metrics.Series {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	old := rs.seen.Load()
	if old != nil {
		if s, ok := (*old)[k]; ok {
			return s
		}
	}
	var next map[seriesKey]*metrics.Series
	if old == nil {
		next = map[seriesKey]*metrics.Series{}
	} else {
		next = maps.Clone(*old)
	}
	s := rs.m.Series(k.api, k.method, route, k.status)
	next[k] = s
	rs.seen.Store(&next)
	return s
}
