package kit

import (
	"net"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// ClientIP straight, on a fasthttp.RequestCtx with the peer address set (app.Test's peer is
// always 0.0.0.0); the APIs' tests check that their limits and throttles count by it.

func TestClientIP(t *testing.T) {
	app := fiber.New()
	proxies := []string{"10.0.0.0/8", "192.168.1.1/32", "fd00::/8"}
	cases := []struct {
		name    string
		peer    string
		trusted []string
		xff     string // "" sends none
		want    string
	}{
		{"no proxies trusted: the peer", "203.0.113.7", nil, "", "203.0.113.7"},
		{"no proxies trusted: a forged X-Forwarded-For is ignored", "203.0.113.7", nil, "198.51.100.1", "203.0.113.7"},
		{"an untrusted peer's X-Forwarded-For is ignored", "203.0.113.7", proxies, "198.51.100.1", "203.0.113.7"},
		{"an untrusted peer naming a trusted proxy is ignored", "203.0.113.7", proxies, "198.51.100.1, 10.1.2.3", "203.0.113.7"},
		{"a trusted proxy's client", "10.1.2.3", proxies, "198.51.100.1", "198.51.100.1"},
		{"a trusted proxy without X-Forwarded-For: the proxy", "10.1.2.3", proxies, "", "10.1.2.3"},
		{"client, proxy1 with proxy1 trusted: the client", "10.1.2.3", proxies, "198.51.100.1, 192.168.1.1", "198.51.100.1"},
		{"the nearest untrusted hop wins over a forged first hop", "10.1.2.3", proxies, "1.1.1.1, 198.51.100.1, 10.9.9.9", "198.51.100.1"},
		{"every hop trusted: the farthest one", "10.1.2.3", proxies, "10.5.5.5, 192.168.1.1", "10.5.5.5"},
		{"spaces and no spaces", "10.1.2.3", proxies, "198.51.100.1,192.168.1.1", "198.51.100.1"},
		{"a garbled header: the proxy", "10.1.2.3", proxies, "not an address", "10.1.2.3"},
		{"an empty header value: the proxy", "10.1.2.3", proxies, " ", "10.1.2.3"},
		{"a garbled nearest hop: trust nothing beyond the proxy", "10.1.2.3", proxies, "198.51.100.1, garbage", "10.1.2.3"},
		{"a garbled farther hop: the last good untrusted one", "10.1.2.3", proxies, "garbage, 198.51.100.1", "198.51.100.1"},
		{"a garbled hop behind trusted ones: the last trusted", "10.1.2.3", proxies, "garbage, 192.168.1.1", "192.168.1.1"},
		{"an address with a port: the address", "10.1.2.3", proxies, "198.51.100.1:4711", "198.51.100.1"},
		{"an IPv6 address with a port", "10.1.2.3", proxies, "[2001:db8::7]:4711", "2001:db8::7"},
		{"an IPv6 client behind an IPv4 proxy", "10.1.2.3", proxies, "2001:db8::1", "2001:db8::1"},
		{"an IPv6 proxy", "fd00::5", proxies, "198.51.100.1", "198.51.100.1"},
		{"an untrusted IPv6 peer", "2001:db8::9", proxies, "198.51.100.1", "2001:db8::9"},
		{"an IPv4-mapped peer is unmapped and trusted", "::ffff:10.1.2.3", proxies, "198.51.100.1", "198.51.100.1"},
		{"an IPv4-mapped client is unmapped", "10.1.2.3", proxies, "::ffff:198.51.100.1", "198.51.100.1"},
		{"a single trusted address as /32", "192.168.1.1", proxies, "198.51.100.1", "198.51.100.1"},
		{"the neighbour of a /32 is not trusted", "192.168.1.2", proxies, "198.51.100.1", "192.168.1.2"},
		{"a thousand trusted hops, then the client", "10.1.2.3", proxies, "198.51.100.1" + strings.Repeat(", 10.0.0.9", 1000), "198.51.100.1"},
		{"a header of commas: the proxy", "10.1.2.3", proxies, strings.Repeat(",", 8000), "10.1.2.3"},
		{"a trailing comma is a garbled nearest hop", "10.1.2.3", proxies, "198.51.100.1,", "10.1.2.3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var req fasthttp.Request
			req.SetRequestURI("/api/products/packages")
			if c.xff != "" {
				req.Header.Set("X-Forwarded-For", c.xff)
			}
			var fctx fasthttp.RequestCtx
			fctx.Init(&req, &net.TCPAddr{IP: net.ParseIP(c.peer), Port: 40000}, nil)
			ctx := app.AcquireCtx(&fctx)
			defer app.ReleaseCtx(ctx)
			if got := ClientIP(ctx, apitest.Prefixes(t, c.trusted...)); got != c.want {
				t.Errorf("ClientIP = %s, want %s", got, c.want)
			}
		})
	}
}
