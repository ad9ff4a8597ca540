package api

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/web"
	"github.com/pocketforge/pocketforge/web/applianceweb"
	"github.com/pocketforge/pocketforge/web/buildweb"
	"github.com/pocketforge/pocketforge/web/consoleweb"
	"github.com/pocketforge/pocketforge/web/docsweb"
	"github.com/pocketforge/pocketforge/web/explorerweb"
	"github.com/pocketforge/pocketforge/web/valuesweb"
)

// bindWeb mounts the web interface: the site's own pages (home, static files) and each area's
// pages over the same domains the APIs use. Its paths are the ones no API owns (areaOf's
// "web"), so its errors are pages.
func bindWeb(app *fiber.App, cfg *config.Config, d Deps, externalURL func() string, cloudLimiter *ratelimit.Limiter) {
	site := &web.Site{ExternalURL: externalURL}
	checks := func() []web.Check {
		var out []web.Check
		for _, c := range d.Ready.Checks() {
			out = append(out, web.Check{Name: c.Name, OK: c.OK, Background: c.Background})
		}
		return out
	}
	clientIP := func(c *fiber.Ctx) string { return kit.ClientIP(c, cfg.TrustedProxies) }
	web.Bind(app, web.Deps{Site: site, ProxyPrefix: cfg.ExplorerProxyPrefix, Checks: checks})
	explorerweb.Bind(app, explorerweb.Deps{Site: site, Explorer: d.Domains.Explorer})
	buildweb.Bind(app, buildweb.Deps{Site: site, Build: d.Domains.Build, Explorer: d.Domains.Explorer})
	consoleweb.Bind(app, consoleweb.Deps{Site: site, Cloud: d.Domains.Cloud, ClientIP: clientIP,
		Secure: strings.HasPrefix(d.ExternalURL, "https://"), AcceptLimit: cloudapi.TransferAcceptLimit(cloudLimiter, cfg.CloudRateScale)})
	applianceweb.Bind(app, applianceweb.Deps{Site: site, Appliance: d.appliance, Checks: checks, Log: d.Log,
		ClientIP: clientIP, Requests: journalReader(d.Journal)})
	valuesweb.Bind(app, valuesweb.Deps{Site: site})
	docsweb.Bind(app, docsweb.Deps{Site: site, BuildRoutes: buildRouteList(app, &d)})
}

// journalReader lets the appliance page read the request journal (api/kit's, which web
// packages do not import).
func journalReader(j *kit.Journal) func(applianceweb.Filter) ([]applianceweb.Request, int) {
	return func(f applianceweb.Filter) ([]applianceweb.Request, int) {
		list := j.List(kit.Filter{API: f.API, Method: f.Method, PathPrefix: f.PathPrefix, Status: f.Status, Limit: f.Limit})
		out := make([]applianceweb.Request, len(list))
		for i, e := range list {
			out[i] = applianceweb.Request{ID: e.ID, Time: e.Time, API: e.API, Method: e.Method, Path: e.Path,
				Query: e.Query, Status: e.Status, DurationMS: e.DurationMS, RemoteIP: e.RemoteIP,
				UserAgent: e.UserAgent, BytesIn: e.BytesIn, BytesOut: e.BytesOut, User: e.User, Curl: e.Curl}
		}
		return out, j.Cap()
	}
}
