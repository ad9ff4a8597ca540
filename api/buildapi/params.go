package buildapi

import (
	"net/url"

	"github.com/gofiber/fiber/v2"
)

// pathParam returns a path parameter percent-decoded: osc encodes path segments
// inconsistently (/source/devel%3Atest/x and /source/devel:test/x), so each is decoded once.
func pathParam(c *fiber.Ctx, name string) string {
	raw := c.Params(name)
	if s, err := url.PathUnescape(raw); err == nil {
		return s
	}
	return raw
}
