package explorerapi

import (
	"bytes"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/valyala/fasthttp"
)

// The badge budget (DESIGN.md, issue 19): a badge ≥ 50,000 renders/s per core before
// caching. BenchmarkBadgeRoute times GET /badge/… through the whole app in process (fiber's
// handler on a fasthttp request context, one goroutine: per core) with the badge cache off, so
// every request reads the results cache and draws; raw is a bare fiber handler sending the same
// SVG bytes, the floor of any answer. The cached case shows what a README badge asked for again
// costs. (badges' own BenchmarkTable50x10 holds the table's 2 ms.)

// badgeBench is an app over a project of n packages in 2 repositories × 2 archs, and a bare
// fiber app that sends body for any /badge path.
func badgeBench(b *testing.B, n int, cached bool) (app *fiber.App, a *api) {
	im := &explorersvc.Service{Now: time.Now}
	if err := im.UseBackend(staticBackend{bigResults(n)}, nil); err != nil {
		b.Fatal(err)
	}
	app = fiber.New(fiber.Config{ErrorHandler: RenderError, DisableStartupMessage: true})
	a = &api{Deps: Deps{Explorer: im, ExternalURL: func() string { return "https://forge.example" }}}
	a.badgeCache.off = !cached
	app.Get("/badge/*", a.badge)
	return app, a
}

func BenchmarkBadgeRoute(b *testing.B) {
	for _, c := range []struct {
		name, uri string
		packages  int
		cached    bool
	}{
		{"project-30", "/badge/" + bigProject + ".svg", 30, false},
		{"package-of-500", "/badge/" + bigProject + "/package-0003.svg", 500, false},
		{"project-500", "/badge/" + bigProject + ".svg", 500, false},
		{"project-30-cached", "/badge/" + bigProject + ".svg", 30, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			app, _ := badgeBench(b, c.packages, c.cached)
			status, _, body := rawGet(app, c.uri)
			if status != 200 || !bytes.Contains(body, []byte("<svg")) {
				b.Fatalf("%s: %d %s", c.uri, status, body)
			}
			bare := fiber.New(fiber.Config{DisableStartupMessage: true})
			bare.Get("/badge/*", func(c *fiber.Ctx) error {
				c.Set(fiber.HeaderContentType, "image/svg+xml")
				return c.Send(body)
			})
			var ctx fasthttp.RequestCtx
			get := func(h fasthttp.RequestHandler) {
				ctx.Request.Reset()
				ctx.Response.Reset()
				ctx.Request.SetRequestURI(c.uri)
				h(&ctx)
				if len(ctx.Response.Body()) != len(body) {
					b.Fatalf("%s: %d bytes, want %d", c.uri, len(ctx.Response.Body()), len(body))
				}
			}
			ours, raw := app.Handler(), bare.Handler()
			bench.Compare(b, 1, func(int) { get(ours) }, func(int) { get(raw) })
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "renders/s")
		})
	}
}
