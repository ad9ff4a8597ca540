package admin

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/appliancesvc"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
)

// requireToken lets a request through only with "Authorization: Bearer <bootstrap token>"
// (appliancesvc.CheckToken decides): without a bearer token 401 with the challenge; a wrong one
// 401 invalid_token; while the client IP is locked after wrong tokens, 429 with Retry-After
// whatever the token. A request without a token is no guess and is not counted.
func (h *handlers) requireToken(c *fiber.Ctx) error {
	token, ok := bearer(c.Get(fiber.HeaderAuthorization))
	if !ok {
		c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="pocketforge appliance"`)
		return kit.Errorf(http.StatusUnauthorized, "the appliance endpoints need the bootstrap token: send Authorization: Bearer <token>")
	}
	err := h.Appliance.CheckToken(token, kit.ClientIP(c, h.TrustedProxies))
	var locked *ratelimit.LockedError
	switch {
	case errors.As(err, &locked):
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(locked.Seconds()))
		return kit.Errorf(http.StatusTooManyRequests, "too many wrong bootstrap tokens from this address; try again in %d seconds", locked.Seconds())
	case errors.Is(err, appliancesvc.ErrBadToken):
		c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="pocketforge appliance", error="invalid_token"`)
		return kit.Errorf(http.StatusUnauthorized, "invalid bootstrap token")
	case err != nil:
		return err
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
