package buildapi

import (
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
)

// Project signing keys: GET/DELETE /source/P/_pubkey and cmd=createkey / cmd=extendkey
// (buildsvc/projects_signkeys.go makes and keeps them; the private half is never served).

// getPubkey answers the project's public key as text: its own, a parent's or the instance's
// (buildsvc.Service.PublicKey).
func (a *api) getPubkey(c *fiber.Ctx) error {
	pub, err := a.Svc.PublicKey(pathParam(c, "project"))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/plain; charset=utf-8")
	return c.SendString(pub)
}

// deletePubkey removes the project's own key (none is fine); afterwards _pubkey answers the
// key of a parent or the global one.
func (a *api) deletePubkey(c *fiber.Ctx) error {
	if err := a.Svc.DeleteSignKey(personOf(c), pathParam(c, "project")); err != nil {
		return err
	}
	return sendOK(c)
}

// createKey makes a new key pair for the project, replacing its key if it had one.
func (a *api) createKey(c *fiber.Ctx) error {
	if err := a.Svc.CreateSignKey(personOf(c), pathParam(c, "project")); err != nil {
		return err
	}
	return sendOK(c)
}

// extendKey renews the project's own key to expire ?days= (default 800, the signer's) from
// now; days must be a positive number.
func (a *api) extendKey(c *fiber.Ctx) error {
	days := 0 // the service's default
	if v := c.Query("days"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return buildsvc.BadRequest("invalid_parameter", "days must be a positive number of days, not '%s'", v)
		}
		days = n
	}
	if err := a.Svc.ExtendSignKey(personOf(c), pathParam(c, "project"), days); err != nil {
		return err
	}
	return sendOK(c)
}
