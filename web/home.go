package web

import (
	"embed"

	"github.com/gofiber/fiber/v2"
)

//go:embed templates/home.html
var homeTemplates embed.FS

var homePages = NewPages(homeTemplates, "templates/home.html")

// Check is one start-up condition and whether it holds, as the home page shows readiness.
type Check struct {
	Name string
	OK   bool
}

// Deps is what the site's own pages (home, static files, errors) need.
type Deps struct {
	Site *Site
	// Checks are the appliance's readiness conditions (the same /_appliance/readyz reports).
	Checks func() []Check
	// ProxyPrefix is where the explorer's read-only build proxy answers ("" when off).
	ProxyPrefix string
}

// homeView is the home page's data: the base URLs of what the appliance serves.
type homeView struct {
	Base        string
	ProxyPrefix string
	Checks      []Check
	Ready       bool
}

// Bind registers the site's own routes: the home page and the static files. The areas bind
// their pages themselves (each package's Bind), all behind CheckCSRF.
func Bind(app fiber.Router, d Deps) {
	app.Get("/static/:name", serveStatic)
	app.Get("/", func(c *fiber.Ctx) error {
		v := homeView{Base: d.Site.Base(), ProxyPrefix: d.ProxyPrefix, Ready: true}
		if v.Base == "" {
			v.Base = c.BaseURL()
		}
		if d.Checks != nil {
			v.Checks = d.Checks()
			for _, ch := range v.Checks {
				v.Ready = v.Ready && ch.OK
			}
		}
		return d.Site.Render(c, fiber.StatusOK, homePages, "home.html", "Home", SectionHome, v)
	})
}
