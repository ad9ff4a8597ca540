package api

import (
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/buildapi"
	"github.com/pocketforge/pocketforge/api/explorerapi"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/explorersvc/remote"
	"github.com/valyala/fasthttp"
)

// explorerProxy wires the explorer's read-only build proxy to the appliance's own build API,
// in process: the build API is mounted a second time, on an app of its own that no listener
// serves (built on the proxy's first request), and the proxy hands it each forwarded request in
// memory. It is the same build API — the same domain service, routes, authentication, read
// protection and <status> errors the listener's /source and /build answer with — only without
// the front middleware: the proxy's own request already has the request id, access-log line,
// journal entry and readiness gate, and the forwarded one is not counted twice. The projects
// the proxy reaches are the explorer's: those in its results cache (ProxyReachable).
//
// With a remote build service (--explorer-backend, remote non-nil) the proxy forwards to it
// over HTTP instead, through the client the explorer's results backend uses: the same rules,
// credentials and answer handling, only another Backend.
func explorerProxy(cfg *config.Config, bd buildapi.Deps, explorer *explorersvc.Service, remote *remote.Client) explorerapi.Proxy {
	if remote != nil {
		return explorerapi.Proxy{
			Prefix: cfg.ExplorerProxyPrefix, Backend: remote, Reachable: explorer.ProxyReachable,
			User: cfg.ExplorerBackendUser, Password: cfg.BackendPassword(),
		}
	}
	backend := explorerapi.NewInProcess(func() fasthttp.RequestHandler {
		app := fiber.New(fiber.Config{
			AppName:               "pocketforge-build",
			DisableStartupMessage: true,
			CaseSensitive:         true,
			BodyLimit:             int(cfg.BodyLimit),
			IdleTimeout:           2 * time.Minute,
			ErrorHandler:          buildapi.RenderError,
		})
		buildapi.Bind(app, bd)
		return app.Handler()
	})
	return explorerapi.Proxy{
		Prefix: cfg.ExplorerProxyPrefix, Backend: backend, Reachable: explorer.ProxyReachable,
		User: cfg.ExplorerBackendUser, Password: cfg.BackendPassword(),
	}
}
