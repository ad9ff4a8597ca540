// Package api builds the one fiber app that serves every pocketforge API from one listener: it
// mounts the cloud, build and explorer APIs and /_appliance, and wraps them in the middleware they
// share (request id, access log, request journal, panic recovery, readiness gate). Each API
// renders its own errors; this package only decides which API a path belongs to.
package api

import (
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/admin"
	"github.com/pocketforge/pocketforge/api/buildapi"
	"github.com/pocketforge/pocketforge/api/cloudapi"
	"github.com/pocketforge/pocketforge/api/deploy"
	"github.com/pocketforge/pocketforge/api/explorerapi"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store"
)

// Deps is what the APIs work on, built once at start-up.
type Deps struct {
	Store   *store.DB
	Clock   *clock.Settable
	Log     *slog.Logger
	Ready   *kit.Readiness
	Journal *kit.Journal
	// OnReplace runs after the data was replaced wholesale (restore, reset, reseed).
	OnReplace func()
	// ExternalURL is the base of every absolute URL the APIs emit (--external-url, or the
	// listener's address).
	ExternalURL string
	// Jobs collects the APIs' clock-driven background work; the caller runs it.
	Jobs *jobs.Runner
	// Explorer imports products and keeps the explorer's search index.
	Explorer *explorersvc.Service
}

// New builds the root app: one place where every API is mounted.
func New(cfg *config.Config, d Deps) *fiber.App {
	app := fiber.New(fiber.Config{
		AppName:               "pocketforge",
		DisableStartupMessage: true,
		CaseSensitive:         true, // /source/Pocket:1.0 and /source/pocket:1.0 are different projects
		BodyLimit:             int(cfg.BodyLimit),
		ReadBufferSize:        16 << 10, // osc and browsers send long cookie and auth headers
		IdleTimeout:           2 * time.Minute,
		ErrorHandler:          renderError,
		JSONEncoder:           kit.MarshalJSON,
	})
	app.Use(front(d))
	cloudapi.Bind(app, cloudapi.Deps{
		Store: d.Store, Clock: d.Clock, Log: d.Log, ExternalURL: func() string { return d.ExternalURL },
		RateScale: cfg.CloudRateScale, Limiter: ratelimit.New(d.Clock.Now), Jobs: d.Jobs,
		TransferDelay: cfg.TransferDelay, DatabaseProvisionTime: cfg.DBProvisionTime,
	})
	buildapi.Bind(app, buildapi.Deps{Store: d.Store, Clock: d.Clock, Log: d.Log, FileLimit: cfg.SourceFileLimit, Jobs: d.Jobs})
	if d.Explorer == nil { // callers that do not keep an index on disk (tests) get one in memory
		d.Explorer = explorersvc.NewMemory(d.Store, d.Clock.Now, d.Log)
	}
	explorerapi.Bind(app, explorerapi.Deps{
		Explorer: d.Explorer, Rate: cfg.ExplorerRate,
		TrustedProxies: cfg.TrustedProxies, Limiter: ratelimit.New(d.Clock.Now), SPDXDir: cfg.SPDXDir,
		SPDXInterval: cfg.SPDXInterval, Jobs: d.Jobs,
	})
	deploy.Bind(app)
	admin.Bind(app.Group("/_appliance"), admin.Deps{
		Store: d.Store, Clock: d.Clock, Ready: d.Ready, Journal: d.Journal, Log: d.Log,
		DevClock: cfg.DevClock, RestoreLimit: cfg.BodyLimit, OnReplace: d.OnReplace,
		Mount: []func(fiber.Router){func(r fiber.Router) { explorerapi.BindAdmin(r, d.Explorer) }},
	})
	return app
}
