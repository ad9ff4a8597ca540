package api

import (
	"fmt"
	"net/http"
	"reflect"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/api/metrics"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/valyala/fasthttp"
)

// front is the one middleware in front of every route. It gives the request its id, turns a panic
// into a 500 in the API's format (the stack goes to the log with the id, never to the client),
// applies the chaos rule that fires for the request, if any (chaos.go), holds API traffic back with 503 until the appliance is ready, reads the body for the APIs that
// do not authenticate first, renders errors itself so that the final status is known, settles a
// body nobody read, then writes the access-log line and the journal entry. One function, so the
// per-request cost is one closure call.
//
// A path that starts with several slashes is routed as if it had one, as OBS's Rails does: osc
// 0.169.1 asks `GET //search/package?match=…` after `rq accept` and exits 1 on a 404.
func front(d Deps) fiber.Handler {
	return func(c *fiber.Ctx) error {
		start := c.Context().Time() // fasthttp reads the clock as it hands the request over
		if start.IsZero() {         // a request context made by hand (benchmarks)
			start = time.Now()
		}
		id := kit.SetRequestID(c)
		if p := c.Path(); strings.HasPrefix(p, "//") {
			c.Path("/" + strings.TrimLeft(p, "/"))
		}
		ar := d.areaOf(c.Path())
		err := injectFault(c, d, ar) // one atomic load without chaos rules
		if err == nil {
			err = guarded(c, d, ar, id)
		}
		if err != nil && err != errDropped {
			answer(c, d, ar, id, err)
		}
		kit.DrainBody(c)
		end := time.Now()
		record(c, d, ar, id, end, end.Sub(start))
		return nil
	}
}

// answer renders err in ar's format; should that fail, a bare 500.
func answer(c *fiber.Ctx, d Deps, ar *area, id string, err error) {
	if rerr := ar.render(c, err); rerr != nil {
		d.Log.Error("rendering an error failed", "request_id", id, "err", rerr)
		c.Status(http.StatusInternalServerError)
	}
}

// guarded runs the rest of the chain, converting a panic into an error and gating on readiness.
func guarded(c *fiber.Ctx, d Deps, ar *area, id string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			d.Log.Error("panic", "request_id", id, "method", c.Method(), "path", c.Path(),
				"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = kit.Errorf(http.StatusInternalServerError, "internal error (request id %s)", id)
		}
	}()
	if ar.name != "appliance" && !d.Ready.Ready() {
		c.Set(fiber.HeaderRetryAfter, "1")
		if st, ok := d.Store.DatabaseStatus(); ok && !st.Reachable {
			return kit.Errorf(http.StatusServiceUnavailable, "the database cannot be reached; try again in a moment")
		}
		return kit.Errorf(http.StatusServiceUnavailable, "pocketforge is starting; try again in a moment")
	}
	if !ar.authFirst && c.Request().Header.ContentLength() == -1 {
		// A chunked body's length is known only by reading it: read it now, no further than the
		// path's bound. A declared length was checked on the head (harden) and is read by the
		// route that takes a body (kit.WithBody); a 404 or 405 never reads it.
		if err := kit.ReadBodyLimit(c, d.bodyCap(c.Path(), int64(c.App().Server().MaxRequestBodySize))); err != nil {
			return err
		}
	}
	return c.Next()
}

// record counts the request in the metrics, writes the access-log line (kit.AccessLog) and,
// for API traffic, the journal entry (with who the request authenticated as, kit.CallerOf, and
// what a curl line replaying it needs). A request whose connection a chaos rule dropped is
// recorded with status 0. /_appliance calls and the appliance page (/appliance) are logged but
// not journaled: polling the journal must not fill it.
//
// Every request pays for this, so it makes no string of its own: the metrics series are
// resolved once per route (requestSeries), the log line is appended by hand, and the journal
// entry is made of views of the request's buffers that Journal.Add copies into its ring.
func record(c *fiber.Ctx, d Deps, ar *area, id string, end time.Time, took time.Duration) {
	status, out, injected := c.Response().StatusCode(), responseSize(c), faultOf(c)
	if c.Context().Hijacked() { // a chaos rule dropped the connection: nothing was answered
		status, out = 0, 0
	}
	if d.series != nil {
		d.series.observe(c, ar.name, status, took)
	}
	if d.AccessLog.Enabled() {
		d.AccessLog.Write(&kit.AccessLine{Time: end, RequestID: id, API: ar.name, Method: c.Method(), Path: c.Path(),
			Status: status, Took: took, Bytes: out, Fault: injected})
	}
	if ar.name == "appliance" || d.Journal.Cap() == 0 || under(c.Path(), "/appliance") {
		return
	}
	who := kit.CallerOf(c)
	var ip [64]byte
	req := c.Request()
	d.Journal.Add(kit.Entry{
		ID: id, Time: clock.At(d.Clock, end), API: ar.name, Method: c.Method(),
		Path: c.Path(), Query: kit.View(req.URI().QueryString()),
		Status: status, DurationMS: float64(took.Microseconds()) / 1000,
		RemoteIP: kit.View(kit.AppendClientIP(ip[:0], c, d.trusted)), UserAgent: kit.View(req.Header.UserAgent()),
		BytesIn: bytesIn(req), BytesOut: out,
		User: who.User, TokenID: who.TokenID, TokenPrefix: who.TokenPrefix, Fault: injected, Replay: kit.ReplayOf(c),
	})
}

// routeOf is the pattern of the route that handled c ("/v4/account/users/:username"), never
// the raw path: metrics label requests with it. A request answered by a middleware in front of
// a group's routes — a rate-limit refusal, a wrong token, a 404 under the group — is labelled
// with the group's prefix and "/*" ("/api/*"); one that nothing but the root middleware saw (a
// 404 outside every group, a 405, an answer outside the router) is metrics.Unmatched.
func routeOf(c *fiber.Ctx) string {
	r := c.Route()
	switch {
	case r == nil || len(r.Handlers) == 0: // fiber's stand-in outside the router: the raw path
		return metrics.Unmatched
	case !isMiddleware(r):
		return r.Path
	case r.Path == "/" || r.Path == "":
		return metrics.Unmatched
	}
	return strings.TrimSuffix(r.Path, "/") + "/*"
}

// routeUse is the index of fiber's unexported Route.use ("a middleware: matches path
// prefixes"), or -1. fiber v2 exports no other way to tell app.Use's routes from handlers (their
// Method is the request's); TestMetricsCountTraffic fails should an upgrade drop the field.
var routeUse = func() int {
	if f, ok := reflect.TypeFor[fiber.Route]().FieldByName("use"); ok && f.Type.Kind() == reflect.Bool && len(f.Index) == 1 {
		return f.Index[0]
	}
	return -1
}()

// isMiddleware reports whether r was registered by Use (or a group's handlers).
func isMiddleware(r *fiber.Route) bool {
	return routeUse >= 0 && reflect.ValueOf(r).Elem().Field(routeUse).Bool()
}

// responseSize is the response body's length without draining a streamed body (a snapshot).
func responseSize(c *fiber.Ctx) int {
	r := c.Response()
	if r.IsBodyStream() {
		return r.Header.ContentLength()
	}
	return len(r.Body())
}

// bytesIn is the size of the request's body for the journal: what was read, or the declared
// length of one that no route read (a 404's, a refusal's).
func bytesIn(req *fasthttp.Request) int {
	return max(len(req.Body()), req.Header.ContentLength())
}
