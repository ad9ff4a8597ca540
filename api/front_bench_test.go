package api

import (
	"bytes"
	"encoding/base64"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/valyala/fasthttp"
)

// Issue 31's small requests through the whole app a client meets — front middleware (request
// id, readiness gate, access log at info, metrics, journal), then the API's own guard and
// handler — against a bare fiber handler sending the very same bytes, loopback, 8 keep-alive
// clients. of-bare is our requests/s over the bare handler's (budgets: account ≥ 0.70, a badge
// ≥ 0.50; the users page is BenchmarkCloudListUsers).

// BenchmarkFrontAccount: GET /v4/account with the bootstrap token (an all-scopes token of demo).
func BenchmarkFrontAccount(b *testing.B) {
	e := newEnv(b, func(c *config.Config) { c.CloudRateScale = 100000 })
	benchSameBytes(b, e, "/v4/account", "Bearer "+token)
}

// BenchmarkFrontUsers: GET /v4/account/users, a page of 100 of demo's 122 users, with the
// bootstrap token (BenchmarkCloudListUsers times the same page against a bare handler that
// encodes it per request).
func BenchmarkFrontUsers(b *testing.B) {
	e := newEnv(b, func(c *config.Config) { c.CloudRateScale = 100000 })
	addBenchUsers(b, e)
	benchSameBytes(b, e, "/v4/account/users", "Bearer "+token)
}

// BenchmarkFrontBadge: GET /badge/devel:tools.svg, the demo project's badge, anonymous.
func BenchmarkFrontBadge(b *testing.B) {
	e := newEnv(b, nil)
	benchSameBytes(b, e, "/badge/devel:tools.svg", "")
}

// BenchmarkFrontSource: GET /source/devel:tools, the demo's small project, with alice's Basic
// credential on every request and no cookie (curl in a loop, a CI bot): the remembered
// credential, the project guard and the listing (BenchmarkSourceProjectApp times the same at
// both log levels).
func BenchmarkFrontSource(b *testing.B) {
	e := newEnv(b, nil)
	benchSameBytes(b, e, "/source/devel:tools", "Basic "+base64.StdEncoding.EncodeToString([]byte("alice:alice-password")))
}

// benchSameBytes asks e's app for path once, serves the answer's body and content type from a
// bare fiber handler, then times both twice: "loopback", over TCP with 8 keep-alive clients
// in this process (the clients' own work is on both sides of the ratio), and "handler", each
// app's handler called on a request context in one goroutine, by CPU time (bench.OfBareCPU) —
// the server's own work per request, as with the app pinned to one core, minus the socket's
// (which scripts/e2e-bench.sh adds back: there the kernel's share is most of a small request).
func benchSameBytes(b *testing.B, e *env, path, auth string) {
	b.Run("loopback", func(b *testing.B) { benchLoopback(b, e, path, auth) })
	b.Run("handler", func(b *testing.B) { benchHandler(b, e, path, auth) })
}

// bareSending is a bare fiber app answering path with body as ctype.
func bareSending(path string, body, ctype []byte) *fiber.App {
	bare := fiber.New(fiber.Config{DisableStartupMessage: true})
	bare.Get(path, func(c *fiber.Ctx) error {
		c.Response().Header.SetContentTypeBytes(ctype)
		return c.Send(body)
	})
	return bare
}

func benchHandler(b *testing.B, e *env, path, auth string) {
	var ctx fasthttp.RequestCtx
	get := func(h fasthttp.RequestHandler) {
		ctx.Request.Reset()
		ctx.Response.Reset()
		ctx.Request.SetRequestURI(path)
		if auth != "" {
			ctx.Request.Header.Set(fiber.HeaderAuthorization, auth)
		}
		h(&ctx)
		if ctx.Response.StatusCode() != 200 {
			b.Fatalf("GET %s: %d %s", path, ctx.Response.StatusCode(), ctx.Response.Body())
		}
	}
	ours := e.app.Handler()
	get(ours)
	body := append([]byte(nil), ctx.Response.Body()...)
	ctype := append([]byte(nil), ctx.Response.Header.ContentType()...)
	raw := bareSending(path, body, ctype).Handler()
	get(raw)
	if !bytes.Equal(ctx.Response.Body(), body) {
		b.Fatal("the bare handler does not send the same bytes")
	}
	bench.OfBareCPU(b, func(int) { get(ours) }, func(int) { get(raw) })
}

func benchLoopback(b *testing.B, e *env, path, auth string) {
	client := &fasthttp.Client{MaxConnsPerHost: 64, ReadTimeout: 5 * time.Second}
	get := func(url string) ([]byte, []byte) {
		req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
		defer fasthttp.ReleaseRequest(req)
		defer fasthttp.ReleaseResponse(resp)
		req.SetRequestURI(url)
		if auth != "" {
			req.Header.Set(fiber.HeaderAuthorization, auth)
		}
		if err := client.Do(req, resp); err != nil || resp.StatusCode() != 200 {
			b.Fatalf("GET %s: %v %d %s", url, err, resp.StatusCode(), resp.Body())
		}
		return append([]byte(nil), resp.Body()...), append([]byte(nil), resp.Header.ContentType()...)
	}
	appURL := listenAt(b, e.app, path)
	body, ctype := get(appURL)
	rawURL := listenAt(b, bareSending(path, body, ctype), path)
	if same, _ := get(rawURL); !bytes.Equal(same, body) {
		b.Fatal("the bare handler does not send the same bytes")
	}
	bench.OfBare(b, 8, func(int) { get(appURL) }, func(int) { get(rawURL) })
}
