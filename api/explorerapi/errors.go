// Package explorerapi serves the repository explorer API (/api, /badge and the read-only build
// proxy under /obs): package, file and git search over SPDX product data, and SVG badges.
package explorerapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
)

// Prefixes are the paths the explorer API owns; errors under them are rendered by RenderError.
// The build proxy's prefix is configured (--explorer-proxy-prefix), and its errors are the
// build service's <status> documents (RenderProxyError), so it is not among them.
var Prefixes = []string{"/api", "/badge"}

// RenderError writes err as the explorer does: {"error": "…"}.
func RenderError(c *fiber.Ctx, err error) error { return kit.RenderSimple(c, err) }
