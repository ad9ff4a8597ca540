package api

import (
	"net"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/internal/bench"
	"github.com/valyala/fasthttp"
)

// benchBody is a small JSON answer like a cloud GET's.
type benchBody struct {
	ID      int    `json:"id"`
	Label   string `json:"label"`
	Status  string `json:"status"`
	Created string `json:"created"`
	Region  string `json:"region"`
}

var benchValue = benchBody{42, "web-1", "running", "2026-11-22T03:55:49", "us-east"}

// BenchmarkMiddleware: a GET through pocketforge's front middleware (request id, readiness gate,
// access log at info level, journal) against a bare fiber handler answering the same JSON, both on
// loopback with 8 concurrent keep-alive clients. x-raw is the price of the shared middleware.
func BenchmarkMiddleware(b *testing.B) {
	e := newEnv(b, nil)
	e.app.Get("/v4/bench", func(c *fiber.Ctx) error { return c.JSON(benchValue) })
	bare := fiber.New(fiber.Config{DisableStartupMessage: true})
	bare.Get("/v4/bench", func(c *fiber.Ctx) error { return c.JSON(benchValue) })

	appURL, rawURL := listen(b, e.app), listen(b, bare)
	client := &fasthttp.Client{MaxConnsPerHost: 64, ReadTimeout: 5 * time.Second}
	get := func(url string) {
		req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
		req.SetRequestURI(url)
		if err := client.Do(req, resp); err != nil || resp.StatusCode() != 200 {
			b.Fatalf("GET %s: %v %d", url, err, resp.StatusCode())
		}
		fasthttp.ReleaseRequest(req)
		fasthttp.ReleaseResponse(resp)
	}
	bench.Compare(b, 8, func(int) { get(appURL) }, func(int) { get(rawURL) })
}

// listen serves app on a loopback port until the benchmark ends and returns the route's URL.
func listen(b *testing.B, app *fiber.App) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go app.Listener(ln)
	b.Cleanup(func() { app.Shutdown() })
	return "http://" + ln.Addr().String() + "/v4/bench"
}
