package cloudapi

import (
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
)

// OAuthPrefixes are the paths of the login server: its errors are OAuth error objects
// (RenderOAuthError), not the cloud API's errors array, whatever produced them — a wrong
// method, an unknown route, a body over the limit, a rate limit.
var OAuthPrefixes = []string{"/oauth"}

// RenderOAuthError writes err as RFC 6749 §5.2 does: {"error": code, "error_description": text}
// with Cache-Control no-store. An error that names no OAuth code gets one by its status:
// invalid_client for 401, server_error and temporarily_unavailable for 5xx, invalid_request
// for everything else a client sent wrong.
func RenderOAuthError(c *fiber.Ctx, err error) error {
	status := kit.Status(err)
	code := "invalid_request"
	switch {
	case status == http.StatusUnauthorized:
		code = "invalid_client"
	case status == http.StatusServiceUnavailable:
		code = "temporarily_unavailable"
	case status >= 500:
		code = "server_error"
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(status).JSON(fiber.Map{"error": code, "error_description": kit.Reason(err, status)})
}
