package api

import (
	"bytes"
	"encoding/base64"
	"log/slog"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/internal/bench"
	"github.com/valyala/fasthttp"
)

// BenchmarkSourceProjectApp (issue 31): GET /source/devel:tools — the demo's small project — with
// Basic auth (a remembered credential, as a client without a cookie jar sends it on every
// request), through the whole stack: the front middleware (request id, readiness gate, access
// log, journal, metrics), then the build API's sign-in, project guard and listing; against a
// bare fiber handler serving the same bytes, both on loopback with 8 keep-alive clients. info is
// the default log level, warn leaves out the access log's line: the gap is the access log's
// share. Budget: ≥ 0.50 of the bare handler (x-raw ≤ 2).
func BenchmarkSourceProjectApp(b *testing.B) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelWarn} {
		b.Run(level.String(), func(b *testing.B) {
			e := newEnv(b, func(c *config.Config) { c.LogLevel = level })
			auth := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:alice-password"))
			client := &fasthttp.Client{MaxConnsPerHost: 64, ReadTimeout: 5 * time.Second}
			get := func(url string) []byte {
				req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
				defer fasthttp.ReleaseRequest(req)
				defer fasthttp.ReleaseResponse(resp)
				req.SetRequestURI(url)
				req.Header.Set("Authorization", auth)
				if err := client.Do(req, resp); err != nil || resp.StatusCode() != 200 {
					b.Fatalf("GET %s: %v %d %s", url, err, resp.StatusCode(), resp.Body())
				}
				return append([]byte(nil), resp.Body()...)
			}
			const path = "/source/devel:tools"
			appURL := listenAt(b, e.app, path)
			body := get(appURL) // warm-up: bcrypt once, then the remembered credential
			if !bytes.Contains(body, []byte(`<directory count="`)) {
				b.Fatalf("listing: %s", body)
			}
			bare := fiber.New(fiber.Config{DisableStartupMessage: true})
			bare.Get(path, func(c *fiber.Ctx) error {
				c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
				return c.Send(body)
			})
			rawURL := listenAt(b, bare, path)
			bench.Compare(b, 8, func(int) { get(appURL) }, func(int) { get(rawURL) })
		})
	}
}
