package explorerapi

import (
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/valyala/fasthttp"
)

// The explorer's speed budget as issue 13 measured it: a package search of about 150 hits under
// 64 concurrent connections, next to a bare fiber handler serving the same bytes at the same
// concurrency in the same run. Budget (DESIGN.md): p50 ≤ 5 ms and ≥ 0.30 of the bare handler's
// requests/s at 100,000 packages.

// term150 is a name substring with about 150 hits in the benchmark data (explorergen.Large
// 100,000 packages: libmagic…, libmagpie…); "bash" itself matches thousands there, every
// *-bash-completion package.
const term150 = "libmag"

// BenchmarkSearchPackages150Conc64: GET /api/products/packages?q=libmag (~150 hits) at 64
// concurrent keep-alive connections vs a bare fiber handler sending the same precomputed body
// at 64 connections. Reports our p50/p99 and the bare handler's, both requests/s and of-bare
// (ours ÷ bare: the budget's ≥ 0.30). Run with -benchtime 2000x or more for a p99.
func BenchmarkSearchPackages150Conc64(b *testing.B) {
	const conc = 64
	e := newLargeEnv(b)
	path := "/api/products/packages?q=" + term150
	body := e.get(b, path)
	var answer struct{ Count int }
	if err := json.Unmarshal(body, &answer); err != nil || answer.Count < 100 || answer.Count > 250 {
		b.Fatalf("q=%s: %v, %d hits (want about 150: pick another term)", term150, err, answer.Count)
	}
	appURL, bareURL := e.base+path, bench.ServeBare(b, "/api/products/packages", fiber.MIMEApplicationJSON, body)+path

	client := func() *fasthttp.Client {
		return &fasthttp.Client{MaxConnsPerHost: conc, ReadTimeout: time.Minute, MaxResponseBodySize: 1 << 30}
	}
	appClient, bareClient := client(), client()
	var mu sync.Mutex
	var appTook, bareTook []time.Duration
	get := func(c *fasthttp.Client, url string, took *[]time.Duration) {
		req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
		defer fasthttp.ReleaseRequest(req)
		defer fasthttp.ReleaseResponse(resp)
		req.SetRequestURI(url)
		t0 := time.Now()
		if err := c.Do(req, resp); err != nil || resp.StatusCode() != 200 || len(resp.Body()) != len(body) {
			b.Fatalf("GET %s: %v %d, %d bytes (want %d)", url, err, resp.StatusCode(), len(resp.Body()), len(body))
		}
		d := time.Since(t0)
		mu.Lock()
		*took = append(*took, d)
		mu.Unlock()
	}
	// As bench.Compare, in alternating slices so a burst of load falls on both sides alike, but
	// keeping both wall times: requests/s at a fixed concurrency is requests over wall time.
	b.ResetTimer()
	b.StopTimer()
	var appWall, bareWall time.Duration
	per := (b.N + 9) / 10
	for done := 0; done < b.N; done += per {
		n := min(per, b.N-done)
		b.StartTimer()
		appWall += bench.Run(n, conc, func(int) { get(appClient, appURL, &appTook) })
		b.StopTimer()
		bareWall += bench.Run(n, conc, func(int) { get(bareClient, bareURL, &bareTook) })
	}
	secs := func(d time.Duration) float64 { return d.Seconds() }
	b.ReportMetric(float64(b.N)/secs(appWall), "req/s")
	b.ReportMetric(float64(b.N)/secs(bareWall), "bare-req/s")
	b.ReportMetric(secs(bareWall)/secs(appWall), "of-bare")
	b.ReportMetric(secs(appWall)/secs(bareWall), "x-raw")
	slices.Sort(appTook)
	slices.Sort(bareTook)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(appTook[len(appTook)/2]), "p50-ms")
	b.ReportMetric(ms(appTook[len(appTook)*99/100]), "p99-ms")
	b.ReportMetric(ms(bareTook[len(bareTook)/2]), "bare-p50-ms")
	b.ReportMetric(ms(bareTook[len(bareTook)*99/100]), "bare-p99-ms")
}
