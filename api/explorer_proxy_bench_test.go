package api

import (
	"bytes"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/valyala/fasthttp"
)

// BenchmarkProxyGet: a GET of a project meta through the explorer's build proxy (front
// middleware, the explorer's rate limit, the path and project checks, the build API in process
// with the explorer's credentials, the answer copied back) against the same GET straight to the
// build API (front middleware, authentication by session cookie as osc replays it, the same
// handler), both over loopback with 8 keep-alive clients. Budget (issue 18): x-raw ≤ 1.5.
func BenchmarkProxyGet(b *testing.B) {
	e := proxyEnv(b, func(c *config.Config) { c.ExplorerRate = config.Rate{Max: 1 << 30, Window: time.Hour} })
	base := "http://" + serveReal(b, e)
	client := &fasthttp.Client{MaxConnsPerHost: 64, ReadTimeout: 5 * time.Second}
	do := func(url, auth, cookie string) []byte {
		req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
		defer fasthttp.ReleaseRequest(req)
		defer fasthttp.ReleaseResponse(resp)
		req.SetRequestURI(url)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		if cookie != "" {
			req.Header.SetCookie("openSUSE_session", cookie)
		}
		if err := client.Do(req, resp); err != nil || resp.StatusCode() != 200 {
			b.Fatalf("GET %s: %v %d %s", url, err, resp.StatusCode(), resp.Body())
		}
		var ck fasthttp.Cookie
		ck.SetKey("openSUSE_session")
		if resp.Header.Cookie(&ck) {
			return append([]byte(nil), ck.Value()...)
		}
		return append([]byte(nil), resp.Body()...)
	}
	path := "/source/Pocket:1.0/_meta"
	session := string(do(base+path, asExplorer, "")) // signs in once, as osc does
	if direct, proxied := do(base+path, "", session), do(base+"/obs"+path, "", ""); !bytes.Equal(direct, proxied) {
		b.Fatalf("the proxy answers differently:\n%s\n%s", proxied, direct)
	}
	bench.Compare(b, 8, func(int) { do(base+"/obs"+path, "", "") }, func(int) { do(base+path, "", session) })
}
