package kit

import (
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// TestHeaderAsSet: a Header writes what c.Set wrote — the same normalized name — and a value
// with line breaks loses them as with c.Set.
func TestHeaderAsSet(t *testing.T) {
	app := fiber.New()
	for _, v := range []string{"plain", "a\r\nInjected: x", "x\ny"} {
		ours, theirs := app.AcquireCtx(&fasthttp.RequestCtx{}), app.AcquireCtx(&fasthttp.RequestCtx{})
		NewHeader("X-RateLimit-Limit").Set(ours, v)
		theirs.Set("X-RateLimit-Limit", v)
		NewHeader("X-OAuth-Scopes").SetInt(ours, 42)
		theirs.Set("X-OAuth-Scopes", "42")
		if a, b := ours.Response().Header.String(), theirs.Response().Header.String(); a != b {
			t.Errorf("%q:\n ours %q\nc.Set %q", v, a, b)
		}
	}
}
