package buildapi

import (
	"fmt"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
)

func TestRenderError(t *testing.T) {
	cases := []struct {
		name   string
		err    error
		status int
		code   string
		body   string
	}{
		{"own code", &kit.Error{Status: 404, Code: "unknown_project", Reason: "Project not found: x & y"}, 404, "unknown_project",
			`<status code="unknown_project"><summary>Project not found: x &amp; y</summary></status>`},
		{"sentinel", fmt.Errorf("package k: %w", store.ErrNotFound), 404, "not_found",
			`<status code="not_found"><summary>package k: not found</summary></status>`},
		{"fiber 404 names the path", fiber.ErrNotFound, 404, "not_found",
			`<status code="not_found"><summary>Not found: /source/p</summary></status>`},
		{"unauthenticated", kit.Errorf(401, "Authentication required"), 401, "authentication_required",
			`<status code="authentication_required"><summary>Authentication required</summary></status>`},
		{"domain fault keeps code and message", fmt.Errorf("reading: %w", fault.Forbidden("source_access_no_permission", "source access to package 'p' is not allowed")), 403,
			"source_access_no_permission", `<status code="source_access_no_permission"><summary>source access to package 'p' is not allowed</summary></status>`},
		{"internal", fmt.Errorf("boom"), 500, "internal_error",
			`<status code="internal_error"><summary>Internal Server Error</summary></status>`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			app := fiber.New(fiber.Config{ErrorHandler: RenderError})
			app.Get("/source/p", func(*fiber.Ctx) error { return c.err })
			resp, _ := app.Test(httptest.NewRequest("GET", "/source/p", nil))
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != c.status || string(body) != c.body || resp.Header.Get("X-Opensuse-Errorcode") != c.code {
				t.Fatalf("%d %s %q", resp.StatusCode, body, resp.Header.Get("X-Opensuse-Errorcode"))
			}
		})
	}
}
