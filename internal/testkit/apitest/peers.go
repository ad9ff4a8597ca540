package apitest

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp/fasthttputil"
)

// Serve serves app on an in-memory listener until the test ends, so that requests can come
// from any peer address (PeerClient): what counts by client IP cannot be seen through
// app.Test, whose peer is always 0.0.0.0.
func Serve(t testing.TB, app *fiber.App) *fasthttputil.InmemoryListener {
	t.Helper()
	ln := fasthttputil.NewInmemoryListener()
	done := make(chan error, 1)
	go func() { done <- app.Listener(ln) }()
	t.Cleanup(func() {
		app.Shutdown()
		ln.Close()
		<-done
	})
	return ln
}

// PeerClient sends requests over ln as if from addr (an IP address).
func PeerClient(ln *fasthttputil.InmemoryListener, addr string) *http.Client {
	local := &net.TCPAddr{IP: net.ParseIP(addr), Port: 50000}
	return &http.Client{
		Transport: &http.Transport{
			DialContext: func(context.Context, string, string) (net.Conn, error) { return ln.DialWithLocalAddr(local) },
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// Prefixes parses CIDR prefixes (as --trusted-proxies lists them) for a test, failing it on a
// bad one.
func Prefixes(t testing.TB, list ...string) []netip.Prefix {
	t.Helper()
	var out []netip.Prefix
	for _, s := range list {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}
