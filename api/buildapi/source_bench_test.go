package buildapi

import (
	"bytes"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/valyala/fasthttp"
)

// BenchmarkSourceProject (issue 31): GET /source/devel:tools — the demo's small project, a few
// hundred bytes of <directory> — with Basic auth, as a client without a cookie jar sends it, from
// 8 keep-alive connections on loopback, against a bare fiber handler serving the same bytes in
// the same run. The build API alone, without the front middleware (api's BenchmarkSourceProjectApp
// adds it): what Basic sign-in (a remembered credential), the project guard and the listing
// cost over HTTP itself. As Admin and as alice (not Admin: the read protection guard runs).
// Budget: ≥ 0.50 of the bare handler (x-raw ≤ 2) with the middleware.
func BenchmarkSourceProject(b *testing.B) {
	for _, who := range []struct{ name, login, password string }{{"admin", "Admin", adminPassword}, {"member", "alice", "alice-password"}} {
		b.Run(who.name, func(b *testing.B) {
			e := newBenchEnv(b)
			e.auth = basic(who.login, who.password)["Authorization"]
			const path = "/source/devel:tools"
			body := e.do(b, "GET", path, nil) // warm-up: bcrypt once, then the remembered credential
			if !bytes.Contains(body, []byte(`<directory count="`)) {
				b.Fatalf("listing: %s", body)
			}
			rawBase := bench.ServeBare(b, path, "application/xml; charset=utf-8", body)
			get := func(url string) {
				req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
				req.SetRequestURI(url)
				req.Header.Set("Authorization", e.auth)
				if err := e.client.Do(req, resp); err != nil || resp.StatusCode() != 200 || len(resp.Body()) != len(body) {
					b.Fatalf("GET %s: %v %d %s", url, err, resp.StatusCode(), resp.Body())
				}
				fasthttp.ReleaseRequest(req)
				fasthttp.ReleaseResponse(resp)
			}
			bench.Compare(b, 8, func(int) { get(e.base + path) }, func(int) { get(rawBase + path) })
		})
	}
}
