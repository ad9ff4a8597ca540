package explorerapi

import (
	"context"
	"fmt"
	"io/fs"
	"net"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/valyala/fasthttp"
)

// The results budget (issue 18): GET /api/projects/<p>/_result from the cache ≤ 2 ms for a
// 500-package project. The benchmark serves a project of 500 packages in 2 repositories × 2
// archs (2,000 statuses, a tenth of them with details) over HTTP on loopback, next to a bare
// fiber handler sending the same bytes on its own listener, in the same run (bench.Compare
// through timed: p50/p99 and x-raw). The cache is filled from an in-memory backend: what a
// read costs does not depend on where the cache was filled from.

// bigProject is the benchmark's project.
const bigProject = "Pocket:Big"

// staticBackend answers one fixed project; its mark never moves.
type staticBackend struct{ p explorersvc.ProjectResults }

func (s staticBackend) Projects(context.Context) ([]string, error) { return []string{s.p.Project}, nil }
func (s staticBackend) Results(context.Context, string) (explorersvc.ProjectResults, error) {
	return s.p, nil
}
func (s staticBackend) Configuration(context.Context) (explorersvc.BackendConfig, error) {
	return explorersvc.BackendConfig{}, nil
}
func (s staticBackend) Changes(context.Context) (uint64, error) { return 1, nil }
func (s staticBackend) Binaries(context.Context, string) ([]explorersvc.Binary, error) {
	return nil, nil
}
func (s staticBackend) Products(context.Context, string) ([]explorersvc.ProductMedium, error) {
	return nil, nil
}
func (s staticBackend) ProductFiles(context.Context, explorersvc.ProductMedium) (fs.FS, error) {
	return nil, fs.ErrNotExist
}

// bigResults is a project of n packages in 2 repositories × 2 archs.
func bigResults(n int) explorersvc.ProjectResults {
	p := explorersvc.ProjectResults{Project: bigProject}
	codes := []string{"succeeded", "succeeded", "succeeded", "failed", "building", "scheduled", "excluded"}
	for _, repo := range []string{"standard", "images"} {
		for _, arch := range []string{"x86_64", "aarch64"} {
			r := explorersvc.RepoResult{Repository: repo, Arch: arch, Code: "published"}
			for i := range n {
				st := explorersvc.PackageStatus{Package: fmt.Sprintf("package-%04d", i), Code: codes[i%len(codes)]}
				if i%10 == 0 {
					st.Code, st.Details = "unresolvable", fmt.Sprintf("nothing provides libdep%d.so()(64bit) needed by package-%04d", i, i)
				}
				r.Statuses = append(r.Statuses, st)
			}
			p.Results = append(p.Results, r)
		}
	}
	return p
}

// serve starts app on a loopback listener and returns its base URL.
func serve(b *testing.B, app *fiber.App) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go app.Listener(ln)
	b.Cleanup(func() { app.Shutdown() })
	return "http://" + ln.Addr().String()
}

// BenchmarkProjectResults500: the whole _result of the 500-package project, and a filtered one
// (one repository and arch, failed and unresolvable only), each vs a bare handler sending its
// bytes.
func BenchmarkProjectResults500(b *testing.B) {
	im := &explorersvc.Service{Now: time.Now}
	if err := im.UseBackend(staticBackend{bigResults(500)}, nil); err != nil {
		b.Fatal(err)
	}
	app := fiber.New(fiber.Config{ErrorHandler: RenderError, DisableStartupMessage: true})
	Bind(app, Deps{Explorer: im, Limiter: ratelimit.New(time.Now)})
	base := serve(b, app)
	client := &fasthttp.Client{MaxConnsPerHost: 4, ReadTimeout: time.Minute, MaxResponseBodySize: 1 << 30}
	get := func(url string, want int) []byte {
		req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
		defer fasthttp.ReleaseRequest(req)
		defer fasthttp.ReleaseResponse(resp)
		req.SetRequestURI(url)
		if err := client.Do(req, resp); err != nil || resp.StatusCode() != 200 || (want > 0 && len(resp.Body()) != want) {
			b.Fatalf("GET %s: %v %d, %d bytes (want %d)", url, err, resp.StatusCode(), len(resp.Body()), want)
		}
		return append([]byte(nil), resp.Body()...)
	}
	for _, c := range []struct{ name, query string }{
		{"whole", ""},
		{"filtered", "?repos=standard&archs=x86_64&status=failed,unresolvable"},
	} {
		b.Run(c.name, func(b *testing.B) {
			path := "/api/projects/" + bigProject + "/_result" + c.query
			body := get(base+path, 0)
			bare := fiber.New(fiber.Config{DisableStartupMessage: true})
			bare.Get("/api/projects/:project/_result", func(c *fiber.Ctx) error {
				c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
				return c.Send(body)
			})
			bareBase := serve(b, bare)
			b.SetBytes(int64(len(body)))
			timed(b, func(int) { get(base+path, len(body)) }, func(int) { get(bareBase+path, len(body)) })
		})
	}
}

// BenchmarkRenderResultList500: the render alone (the handler's work after the cache lookup)
// vs copying the bytes it produces, the floor of any answer.
func BenchmarkRenderResultList500(b *testing.B) {
	p := bigResults(500)
	body := renderResultList(p)
	var sink []byte
	timed(b, func(int) { sink = renderResultList(p) }, func(int) { sink = append(sink[:0], body...) })
	_ = sink
}
