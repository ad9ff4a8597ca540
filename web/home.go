package web

import (
	"github.com/gofiber/fiber/v2"
)

// Check is one start-up condition and whether it holds, as the home page shows readiness.
// A Background condition (the demo farm building the products) never holds readiness back.
type Check struct {
	Name       string
	OK         bool
	Background bool
}

// AllReady reports whether every condition that gates readiness holds: what the home page and
// the appliance page call ready, as readyz does.
func AllReady(checks []Check) bool {
	for _, ch := range checks {
		if !ch.OK && !ch.Background {
			return false
		}
	}
	return true
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
			v.Ready = AllReady(v.Checks)
		}
		return d.Site.Render(c, fiber.StatusOK, "Home", SectionHome, PageOf(homePage, v))
	})
}

// checkState is how the home page words a readiness condition.
func checkState(ch Check) string {
	switch {
	case ch.OK:
		return "ok"
	case ch.Background:
		return "in the background"
	}
	return "waiting"
}
