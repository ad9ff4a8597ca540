package kit

import (
	"net/netip"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// ClientIP is the address a request is counted under — by the rate limits, the sign-in and
// bootstrap-token throttles and the request journal: the connection's peer, unless the peer is
// a trusted proxy (--trusted-proxies); then the nearest address in X-Forwarded-For that is not
// itself a trusted proxy. X-Forwarded-For from anyone else is ignored, so a client cannot name
// itself anew on every request to escape a per-IP limit or lock; and behind a trusted proxy,
// clients are told apart instead of all sharing the proxy's address. A garbled hop ends the
// walk: nothing beyond the last good one is believed.
func ClientIP(c *fiber.Ctx, trusted []netip.Prefix) string {
	a, ok := clientAddr(c, trusted)
	if !ok {
		return c.Context().RemoteIP().String()
	}
	return a.String()
}

// AppendClientIP appends ClientIP(c, trusted) to b (the journal's copy, without a string of its
// own per request).
func AppendClientIP(b []byte, c *fiber.Ctx, trusted []netip.Prefix) []byte {
	a, ok := clientAddr(c, trusted)
	if !ok {
		return append(b, c.Context().RemoteIP().String()...)
	}
	return a.AppendTo(b)
}

// clientAddr is ClientIP's address; false when the peer's is none netip reads.
func clientAddr(c *fiber.Ctx, trusted []netip.Prefix) (netip.Addr, bool) {
	peer, ok := netip.AddrFromSlice(c.Context().RemoteIP())
	if !ok {
		return peer, false
	}
	peer = peer.Unmap()
	if !isTrusted(peer, trusted) {
		return peer, true
	}
	// The hops are read from the nearest back, without splitting the header: a head of 16 KiB
	// of commas costs no allocation per hop.
	rest := c.Get(fiber.HeaderXForwardedFor)
	for more := true; more; {
		hop := rest
		if i := strings.LastIndexByte(rest, ','); i >= 0 {
			hop, rest = rest[i+1:], rest[:i]
		} else {
			more = false
		}
		a, err := hopAddr(strings.TrimSpace(hop))
		if err != nil {
			break // a garbled hop: trust nothing beyond the last good one
		}
		a = a.Unmap()
		if !isTrusted(a, trusted) {
			return a, true
		}
		peer = a
	}
	return peer, true
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
