// Package api builds the one fiber app that serves every pocketforge API from one listener: it
// mounts the cloud, build and explorer APIs and /_appliance, and wraps them in the middleware they
// share (request id, access log, request journal, panic recovery, readiness gate). Each API
// renders its own errors; this package only decides which API a path belongs to.
package api

import (
	"log/slog"
	"net/netip"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/admin"
	"github.com/pocketforge/pocketforge/api/buildapi"
	"github.com/pocketforge/pocketforge/api/chaos"
	"github.com/pocketforge/pocketforge/api/cloudapi"
	"github.com/pocketforge/pocketforge/api/explorerapi"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/api/metrics"
	"github.com/pocketforge/pocketforge/api/valuesapi"
	"github.com/pocketforge/pocketforge/appliancesvc"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store"
)

// Deps is what the APIs work on, built once at start-up.
type Deps struct {
	Store *store.DB
	Clock *clock.Settable
	Log   *slog.Logger
	// AccessLog writes the access-log lines (serve's, on the log's writer: kit.NewAccessLog);
	// nil: New sends them through Log.
	AccessLog *kit.AccessLog
	Ready     *kit.Readiness
	Journal   *kit.Journal
	// OnReplace runs after the data was replaced wholesale (restore, reset, reseed); New then
	// tells the build and cloud domains (which forget their sign-in failures) and resets the
	// cloud API's rate counts.
	OnReplace func()
	// ExternalURL is the base of every absolute URL the APIs emit (--external-url, or the
	// listener's address).
	ExternalURL string
	// Domains are the domains the handlers call, opened by serve before the app (with their
	// jobs registered there) or by a test's harness: domains.Open is the one place they are
	// built. New refuses to run without them.
	Domains *domains.Set
	// trusted are the reverse proxies whose X-Forwarded-For names the client
	// (--trusted-proxies), set by New from the configuration for the journal's remote_ip.
	trusted []netip.Prefix
	// proxyPrefix is where the explorer's build proxy answers (--explorer-proxy-prefix), set by
	// New: its paths are answered in the build service's format.
	proxyPrefix string
	// appliance is the operator's domain /_appliance and the appliance page share, set by New.
	appliance *appliancesvc.Service
	// metrics counts every request and reads the domains at scrape time, set by New; series
	// holds each route's resolved series of it.
	metrics *metrics.Metrics
	series  *requestSeries
	// chaos holds the fault injection rules /_appliance/chaos sets and the front middleware
	// applies, made by New (empty: no request is faulted).
	chaos *chaos.Injector
}

// New builds the root app: one place where every API is mounted.
func New(cfg *config.Config, d Deps) *fiber.App {
	d.trusted = cfg.TrustedProxies
	d.proxyPrefix = cfg.ExplorerProxyPrefix
	d.metrics = metrics.New()
	d.series = &requestSeries{m: d.metrics}
	if d.AccessLog == nil {
		d.AccessLog = kit.AccessLogVia(d.Log)
	}
	d.Store.ObserveCommits(d.metrics.ObserveCommit)
	d.chaos = chaos.New()
	if d.Journal != nil {
		d.Journal.SetExternalURL(d.ExternalURL)
	}
	app := fiber.New(fiber.Config{
		AppName:               "pocketforge",
		DisableStartupMessage: true,
		CaseSensitive:         true, // /source/Pocket:1.0 and /source/pocket:1.0 are different projects
		BodyLimit:             int(cfg.BodyLimit),
		ReadBufferSize:        16 << 10, // osc and browsers send long cookie and auth headers
		IdleTimeout:           2 * time.Minute,
		ErrorHandler:          d.renderError,
		JSONEncoder:           kit.MarshalJSON,
	})
	if d.Domains == nil {
		panic("api.New: no domains (domains.Open builds them)")
	}
	harden(app, cfg, d)
	app.Use(front(d))
	externalURL := func() string { return d.ExternalURL }
	cloudLimiter := ratelimit.New(d.Clock.Now)
	cloudapi.Bind(app, cloudapi.Deps{
		Store: d.Store, Clock: d.Clock, Log: d.Log, ExternalURL: externalURL,
		RateScale: cfg.CloudRateScale, Limiter: cloudLimiter, Cloud: d.Domains.Cloud,
		TrustedProxies: cfg.TrustedProxies,
	})
	buildDeps := buildapi.Deps{Store: d.Store, Clock: d.Clock, Log: d.Log, Build: d.Domains.Build, ExternalURL: externalURL, TrustedProxies: cfg.TrustedProxies}
	buildapi.Bind(app, buildDeps)
	buildapi.BindDownload(app, d.Domains.Build.Farm, func(c *fiber.Ctx) string {
		if cfg.DownloadURL != "" {
			return strings.TrimRight(cfg.DownloadURL, "/")
		}
		base := d.ExternalURL
		if base == "" {
			base = c.BaseURL()
		}
		return strings.TrimRight(base, "/") + buildapi.DownloadPrefix
	})
	explorerLimiter := ratelimit.New(d.Clock.Now)
	explorerapi.Bind(app, explorerapi.Deps{
		Explorer: d.Domains.Explorer, Rate: cfg.ExplorerRate,
		TrustedProxies: cfg.TrustedProxies, Limiter: explorerLimiter,
		Proxy:       explorerProxy(cfg, buildDeps, d.Domains.Explorer, d.Domains.Remote),
		ExternalURL: externalURL,
	})
	valuesapi.Bind(app)
	replaced := func() {
		if d.OnReplace != nil {
			d.OnReplace()
		}
		d.Domains.Build.Replaced()
		d.Domains.Cloud.Replaced()
		// The cloud API's rate counts are kept per token id, and a replaced data file hands the
		// same ids out again: a new token must not inherit an old one's spent budget. The
		// explorer's limit counts client IPs, which no data replacement changes: it stays.
		cloudLimiter.Reset()
	}
	// One operator domain for /_appliance and the appliance page: one throttle of guesses at
	// the token, one replace hook.
	d.appliance = appliancesvc.New(d.Store, appliancesvc.Options{Clock: d.Clock, DevClock: cfg.DevClock, OnReplace: replaced,
		World: domains.DemoWorld()})
	serveMetrics := bindMetrics(app, cfg, d, map[string]*ratelimit.Limiter{"cloud": cloudLimiter, "explorer": explorerLimiter})
	bindWeb(app, cfg, d, externalURL, cloudLimiter)
	admin.Bind(app.Group("/_appliance"), admin.Deps{
		Store: d.Store, Clock: d.Clock, Ready: d.Ready, Journal: d.Journal, Log: d.Log, Appliance: d.appliance,
		RestoreLimit: cfg.BodyLimit, TrustedProxies: cfg.TrustedProxies, Chaos: d.chaos,
		Mount:       []func(fiber.Router){func(r fiber.Router) { explorerapi.BindAdmin(r, d.Domains.Explorer) }, serveMetrics},
		BuildRoutes: buildRouteList(app, &d),
	})
	return app
}

// CloudOptions are the cloud domain's settings from cfg; externalURL is the base of the
// absolute URLs it emits (mails, thumbnails).
func CloudOptions(cfg *config.Config, externalURL func() string) cloudsvc.Options {
	listen := cfg.SQLDBListen
	if listen == "off" {
		listen = ""
	}
	return cloudsvc.Options{TransferDelay: cfg.TransferDelay, DatabaseProvisionTime: cfg.DBProvisionTime, ExternalURL: externalURL,
		SQLListen: listen, SQLMaxInstances: cfg.SQLDBMaxInstances, SQLMaxMemory: cfg.SQLDBMaxMemory, SQLPorts: cfg.SQLDBPorts}
}
