package api

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/web"
	"github.com/pocketforge/pocketforge/web/buildweb"
	"github.com/pocketforge/pocketforge/web/consoleweb"
	"github.com/pocketforge/pocketforge/web/explorerweb"
)

// bindWeb mounts the web interface: the site's own pages (home, static files) and each area's
// pages over the same domains the APIs use. Its paths are the ones no API owns (areaOf's
// "web"), so its errors are pages.
func bindWeb(app *fiber.App, cfg *config.Config, d Deps, externalURL func() string) {
	site := &web.Site{ExternalURL: externalURL}
	web.Bind(app, web.Deps{Site: site, ProxyPrefix: cfg.ExplorerProxyPrefix, Checks: func() []web.Check {
		var out []web.Check
		for _, c := range d.Ready.Checks() {
			out = append(out, web.Check{Name: c.Name, OK: c.OK})
		}
		return out
	}})
	explorerweb.Bind(app, explorerweb.Deps{Site: site, Explorer: d.Explorer})
	consoleweb.Bind(app, consoleweb.Deps{Site: site, Cloud: d.Cloud, ClientIP: func(c *fiber.Ctx) string { return kit.ClientIP(c, cfg.TrustedProxies) },
		Secure: strings.HasPrefix(d.ExternalURL, "https://")})
	buildweb.Bind(app, buildweb.Deps{Site: site, Build: d.Build, Explorer: d.Explorer})
}
