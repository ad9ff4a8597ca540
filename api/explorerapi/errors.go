// Package explorerapi serves the repository explorer API (/api, /badge and the read-only build
// proxy under /obs): package, file and git search over SPDX product data, and SVG badges.
package explorerapi

import (
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/explorersvc"
)

// Prefixes are the paths the explorer API owns; errors under them are rendered by RenderError.
// The build proxy's prefix is configured (--explorer-proxy-prefix), and its errors are the
// build service's <status> documents (RenderProxyError), so it is not among them.
var Prefixes = []string{"/api", "/badge"}

// RenderError writes err as the explorer does: {"error": "…"}.
func RenderError(c *fiber.Ctx, err error) error { return kit.RenderSimple(c, WireError(err)) }

// WireError is err as the APIs answer it: a build backend's failure (an
// *explorersvc.BackendError anywhere in err's chain) becomes the *kit.Error every renderer
// shows — 504 when the backend did not answer in time, else 500, with its code and message;
// any other error is returned as it is. The explorer's renderer and its proxy apply it, and so
// do the pages that read the explorer's results (api's renderPage).
func WireError(err error) error {
	var be *explorersvc.BackendError
	if !errors.As(err, &be) {
		return err
	}
	status := http.StatusInternalServerError
	if be.Timeout {
		status = http.StatusGatewayTimeout
	}
	return &kit.Error{Status: status, Code: be.Code, Reason: be.Msg}
}
