package explorerapi

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
)

// The explorer's rate limit (--explorer-rate, 100 requests an hour by default) counts per
// client IP (kit.ClientIP: the peer, or behind a trusted proxy the client it names) on /api and
// the build proxy; the web interface and badges are exempt. Forged X-Forwarded-For headers from
// anyone but a trusted proxy are ignored, so they cannot buy a flood more requests.

// limit is the rate-limit middleware of the explorer's counted routes.
func (a *api) limit(c *fiber.Ctx) error {
	if a.Rate.Max <= 0 || a.Rate.Window <= 0 { // no window can be counted: off, as ratelimit.Limit treats it
		return c.Next()
	}
	l := ratelimit.Limit{Name: "explorer", Max: a.Rate.Max, Window: a.Rate.Window}
	d := a.Limiter.Take("explorer:"+kit.ClientIP(c, a.TrustedProxies), l)
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
