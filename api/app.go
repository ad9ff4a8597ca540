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
	"github.com/pocketforge/pocketforge/api/cloudapi"
	"github.com/pocketforge/pocketforge/api/deploy"
	"github.com/pocketforge/pocketforge/api/explorerapi"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/appliancesvc"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/explorersvc/remote"
	"github.com/pocketforge/pocketforge/internal/chaos"
	"github.com/pocketforge/pocketforge/internal/metrics"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
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
	// Build, Cloud and Explorer are the domains the handlers call, built by serve before the
	// app (with their jobs registered there). Nil ones are built here over Store — tests that
	// want the whole app and no jobs leave them out; the explorer's index is then in memory.
	Build    *domains.Build
	Cloud    *cloudsvc.Service
	Explorer *explorersvc.Service
	// Remote is the remote build service (--explorer-backend) the explorer's backend reads and
	// its proxy forwards to, one client for both; nil with the flag set: New makes one (and,
	// when it builds the explorer too, the explorer's backend over it).
	Remote *remote.Client
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
	harden(app, cfg, d)
	app.Use(front(d))
	externalURL := func() string { return d.ExternalURL }
	if d.Cloud == nil {
		// A domain made here has no owner to close it, so its sqldb instances stay simulated
		// records (SQLListen ""); serve passes the domain it builds, closes and reconciles.
		opts := CloudOptions(cfg, externalURL)
		opts.SQLListen = ""
		d.Cloud = cloudsvc.New(d.Store, d.Clock, d.Log, opts)
	}
	cloudLimiter := ratelimit.New(d.Clock.Now)
	cloudapi.Bind(app, cloudapi.Deps{
		Store: d.Store, Clock: d.Clock, Log: d.Log, ExternalURL: externalURL,
		RateScale: cfg.CloudRateScale, Limiter: cloudLimiter, Cloud: d.Cloud,
		TrustedProxies: cfg.TrustedProxies,
	})
	if d.Build == nil {
		d.Build = domains.NewBuild(d.Store, d.Clock, d.Log, domains.BuildOptionsOf(cfg))
	}
	buildDeps := buildapi.Deps{Store: d.Store, Clock: d.Clock, Log: d.Log, Build: d.Build, ExternalURL: externalURL, TrustedProxies: cfg.TrustedProxies}
	buildapi.Bind(app, buildDeps)
	buildapi.BindDownload(app, d.Build.Farm, func(c *fiber.Ctx) string {
		if cfg.DownloadURL != "" {
			return strings.TrimRight(cfg.DownloadURL, "/")
		}
		base := d.ExternalURL
		if base == "" {
			base = c.BaseURL()
		}
		return strings.TrimRight(base, "/") + buildapi.DownloadPrefix
	})
	if d.Remote == nil && cfg.ExplorerBackend != "" {
		d.Remote, _ = ExplorerRemote(cfg) // config checked the URL
	}
	if d.Explorer == nil {
		d.Explorer = explorersvc.NewMemory(d.Store, d.Clock.Now, d.Log)
		// Its build backend is this app's build service, read as an anonymous non-member (or the
		// remote one); the results cache fills on the first read (no jobs run here to refresh it
		// on change).
		var backend explorersvc.Backend = d.Build.Backend(d.Store, buildstore.Person{}, externalURL)
		if d.Remote != nil {
			rb := &remote.Backend{Client: d.Remote, Poll: cfg.ExplorerPoll, Now: d.Clock.Now}
			backend, d.Explorer.Builds = rb, rb
		}
		_ = d.Explorer.UseBackend(backend, cfg.ExplorerFollow)
	}
	explorerLimiter := ratelimit.New(d.Clock.Now)
	explorerapi.Bind(app, explorerapi.Deps{
		Explorer: d.Explorer, Rate: cfg.ExplorerRate,
		TrustedProxies: cfg.TrustedProxies, Limiter: explorerLimiter,
		Proxy:       explorerProxy(cfg, buildDeps, d.Explorer, d.Remote),
		ExternalURL: externalURL,
	})
	deploy.Bind(app)
	replaced := func() {
		if d.OnReplace != nil {
			d.OnReplace()
		}
		d.Build.Replaced()
		d.Cloud.Replaced()
		// The cloud API's rate counts are kept per token id, and a replaced data file hands the
		// same ids out again: a new token must not inherit an old one's spent budget. The
		// explorer's limit counts client IPs, which no data replacement changes: it stays.
		cloudLimiter.Reset()
	}
	// One operator domain for /_appliance and the appliance page: one throttle of guesses at
	// the token, one replace hook.
	d.appliance = appliancesvc.New(d.Store, appliancesvc.Options{Clock: d.Clock, DevClock: cfg.DevClock, OnReplace: replaced})
	serveMetrics := bindMetrics(app, cfg, d, map[string]*ratelimit.Limiter{"cloud": cloudLimiter, "explorer": explorerLimiter})
	bindWeb(app, cfg, d, externalURL)
	admin.Bind(app.Group("/_appliance"), admin.Deps{
		Store: d.Store, Clock: d.Clock, Ready: d.Ready, Journal: d.Journal, Log: d.Log, Appliance: d.appliance,
		DevClock: cfg.DevClock, RestoreLimit: cfg.BodyLimit, TrustedProxies: cfg.TrustedProxies, Chaos: d.chaos,
		Mount:       []func(fiber.Router){func(r fiber.Router) { explorerapi.BindAdmin(r, d.Explorer) }, serveMetrics},
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
