package buildapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
)

// Bind registers every route of the build API: one bindXxx per resource group, all called here.
// Every route needs an authenticated person (the seed's rule), checked by a.authenticated.
func Bind(app fiber.Router, d Deps) {
	a := &api{Deps: d, Svc: d.Build, creds: newCredentialCache(), sessions: newSessionStore()}
	if a.Svc == nil {
		a.Svc = buildsvc.New(d.Store, d.Clock, d.Log, buildsvc.Options{FileLimit: d.FileLimit})
	}
	a.bindAbout(app)
	a.bindInstance(app)
	a.bindPeople(app)
	a.bindAttributes(app)
	a.bindSources(app)
	a.bindFiles(app)
	a.bindSearch(app)
	a.bindTrigger(app)
}

// get registers an authenticated GET route.
func (a *api) get(r fiber.Router, path string, h fiber.Handler) { r.Get(path, a.authenticated, h) }
