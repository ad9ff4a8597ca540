package explorerapi

import (
	"fmt"
	"math"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
)

// The explorer's rate limit (--explorer-rate, 100 requests an hour by default) counts per
// client IP on /api and the build proxy; the web interface and badges are exempt. The client
// IP is the connection's peer, unless the peer is a trusted proxy (--trusted-proxies): then it
// is the nearest address in X-Forwarded-For that is not itself a trusted proxy. Forged
// X-Forwarded-For headers from anyone else are ignored, so they cannot buy a flood more
// requests.

// clientIP is the address a request is counted under.
func clientIP(c *fiber.Ctx, trusted []netip.Prefix) string {
	peer, err := netip.ParseAddr(c.Context().RemoteIP().String())
	if err != nil {
		return c.Context().RemoteIP().String()
	}
	peer = peer.Unmap()
	if !isTrusted(peer, trusted) {
		return peer.String()
	}
	hops := strings.Split(c.Get(fiber.HeaderXForwardedFor), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := hopAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break // a garbled hop: trust nothing beyond the last good one
		}
		a = a.Unmap()
		if !isTrusted(a, trusted) {
			return a.String()
		}
		peer = a
	}
	return peer.String()
}

// hopAddr reads one X-Forwarded-For entry: an address, or an address with a port (some proxies
// add it; "[::1]:8080" for IPv6).
func hopAddr(s string) (netip.Addr, error) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a, nil
	}
	ap, err := netip.ParseAddrPort(s)
	return ap.Addr(), err
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// limit is the rate-limit middleware of the explorer's counted routes.
func (a *api) limit(c *fiber.Ctx) error {
	if a.Rate.Max <= 0 || a.Rate.Window <= 0 { // no window can be counted: off, as ratelimit.Limit treats it
		return c.Next()
	}
	l := ratelimit.Limit{Name: "explorer", Max: a.Rate.Max, Window: a.Rate.Window}
	d := a.Limiter.Take("explorer:"+clientIP(c, a.TrustedProxies), l)
	c.Set("X-RateLimit-Limit", strconv.Itoa(d.Limit))
	c.Set("X-RateLimit-Remaining", strconv.Itoa(d.Remaining))
	c.Set("X-RateLimit-Reset", strconv.FormatInt(d.Reset.Unix(), 10))
	if d.Allowed {
		return c.Next()
	}
	secs := int(math.Ceil(d.RetryAfter.Seconds()))
	c.Set(fiber.HeaderRetryAfter, strconv.Itoa(secs))
	return &kit.Error{Status: fiber.StatusTooManyRequests,
		Reason: fmt.Sprintf("rate limit exceeded: %d requests per %s from one address; retry in %d seconds", a.Rate.Max, windowText(a.Rate.Window), secs)}
}

// windowText names a window in words ("hour", "10m0s").
func windowText(w time.Duration) string {
	switch w {
	case time.Hour:
		return "hour"
	case time.Minute:
		return "minute"
	}
	return w.String()
}
