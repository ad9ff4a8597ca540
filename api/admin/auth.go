package admin

import (
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/store/appliance"
	"go.etcd.io/bbolt"
)

// requireToken lets a request through only with "Authorization: Bearer <bootstrap token>".
func (h *handlers) requireToken(c *fiber.Ctx) error {
	token, ok := bearer(c.Get(fiber.HeaderAuthorization))
	if !ok {
		c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="pocketforge appliance"`)
		return kit.Errorf(http.StatusUnauthorized, "the appliance endpoints need the bootstrap token: send Authorization: Bearer <token>")
	}
	var valid bool
	_ = h.Store.View(func(tx *bbolt.Tx) error { valid = appliance.CheckBootstrapToken(tx, token); return nil })
	if !valid {
		c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="pocketforge appliance", error="invalid_token"`)
		return kit.Errorf(http.StatusUnauthorized, "invalid bootstrap token")
	}
	return kit.WithBody(c) // a snapshot upload is read only once the token is good
}

// bearer extracts the token of an "Authorization: Bearer <token>" header (scheme case-insensitive).
func bearer(header string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	return token, true
}
