// Package ratelimit counts requests for the rate limits of the cloud API and the explorer, and
// failed sign-ins for the password throttle of the build API and the cloud's login server
// (SignIns; the domains set its policy). For rate limits it owns only the counting: the HTTP
// layer picks the key of a request (the OAuth token for authenticated cloud calls, the client IP
// for public endpoints and the explorer) and the limits of its route, calls Take, and turns the
// Decision into a 429 and the X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset and
// Retry-After headers.
//
// Windows are fixed and aligned to the Unix epoch (a 2-minute window starts at every even minute),
// so a Reset time is the same for every request in a window and easy to check by hand. Counters
// live in memory only: they are not data of record, and a restart or an appliance reset forgets
// them, as the provider's own windows would have rolled over anyway.
package ratelimit

import (
	"math"
	"time"
)

// Limit is a request count over a fixed window. A Max of 0 (or less) means unlimited: such a limit
// never blocks and is left out of the headers. A Window of 0 (or less) cannot be counted and is
// treated as unlimited too, rather than blocking every request over a configuration slip.
//
// A counter is identified by the key passed to Take together with Name, so the limits passed to one
// Take must have distinct names; a limit that changes its Window keeps its name but starts afresh.
type Limit struct {
	Name   string        // e.g. "general" or "endpoint:GET /account/users"
	Max    int           // requests allowed per window; 0 = unlimited
	Window time.Duration // window length; windows start at multiples of it since the epoch
}

// unlimited reports whether l never blocks.
func (l Limit) unlimited() bool { return l.Max <= 0 || l.Window <= 0 }

// scaleSlack absorbs float noise so that 1600*0.01 (16.000000000000004 in binary) rounds up to 16,
// not 17.
const scaleSlack = 1e-9

// Scale returns l with Max multiplied by factor, rounded up and at least 1, so that a demo lowering
// every limit to 1 % still has limits that can be hit (1,600 becomes 16, 2 becomes 1). A factor of
// 0 (or below, or NaN) returns Max 0, which is unlimited; an unlimited l stays unlimited.
func (l Limit) Scale(factor float64) Limit {
	if !(factor > 0) || l.Max <= 0 {
		l.Max = 0
		return l
	}
	v := math.Ceil(float64(l.Max)*factor - scaleSlack)
	switch {
	case v < 1:
		l.Max = 1
	case v >= math.MaxInt: // float64(math.MaxInt) is 2^63; also catches +Inf
		l.Max = math.MaxInt
	default:
		l.Max = int(v)
	}
	return l
}

// bounds returns the window of length w (in nanoseconds, > 0) holding the instant ns: the start is
// ns rounded down to a multiple of w, also before the epoch, so ns is always inside [start, end).
func bounds(ns, w int64) (start, end int64) {
	r := ns % w
	if r < 0 {
		r += w
	}
	start = ns - r
	return start, start + w
}
