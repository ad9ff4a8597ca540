package bench

import (
	"net"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// client is the keep-alive client of the loopback benchmarks: enough connections for their
// concurrency, a timeout so a stuck server fails the benchmark instead of hanging it.
var client = &fasthttp.Client{MaxConnsPerHost: 64, ReadTimeout: 5 * time.Second, MaxResponseBodySize: 1 << 30}

// Get sends GET url (with the Authorization header auth, none when empty) and returns a copy
// of the body; an error or any status but 200 fails b.
func Get(b testing.TB, url, auth string) []byte {
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
	return append([]byte(nil), resp.Body()...)
}

// ServeBare serves body as contentType at path from a bare fiber app — no middleware, nothing
// computed — on a loopback port until b ends, and returns its base URL: the raw layer an HTTP
// benchmark compares pocketforge against, sending the very same bytes.
func ServeBare(b testing.TB, path, contentType string, body []byte) string {
	bare := fiber.New(fiber.Config{DisableStartupMessage: true})
	bare.Get(path, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, contentType)
		return c.Send(body)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go bare.Listener(ln)
	b.Cleanup(func() { bare.Shutdown() })
	return "http://" + ln.Addr().String()
}
