// Package remote is a remote build service reached over HTTP (--explorer-backend), beside the
// explorer domain it serves: Client, the one transport (one connection pool, one timeout, the
// configured credentials) that the explorer API's read-only proxy forwards through, and
// Backend, the explorer's explorersvc.Backend and explorersvc.BuildResults made of OBS's own
// requests over that Client. It speaks HTTP but knows no HTTP server: it imports neither fiber
// nor api/*, and its failures are the domain's (*explorersvc.BackendError), which each API
// renders in its own format.
package remote

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/valyala/fasthttp"
)

// Timeout is how long one request to a remote build service may take, from dialing to
// the last byte of its answer: the seed's 60 s limit on a backend answer. A backend that is
// slower is answered 504, never waited for.
const Timeout = 60 * time.Second

// Client is a build service reached over HTTP (--explorer-backend): the explorer proxy's
// backend for a remote build service, and the transport of the explorer's remote results
// backend (Backend), so both reach the remote through one connection pool, one timeout and
// one set of credentials. Requests carry a path relative to the build API's root
// ("/source/home:alice?view=info"); Do puts the base URL's path in front of it.
type Client struct {
	client  *fasthttp.HostClient
	base    string // the base URL's path without its trailing slash ("" or "/obs")
	host    string
	scheme  string
	basic   string
	timeout time.Duration
}

// New is a client of the build service at baseURL (http or https, as config checked it)
// signed in as user with password; timeout 0 is Timeout (tests give a shorter one).
func New(baseURL, user, password string, timeout time.Duration) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the remote build service URL %q is not an http or https URL", baseURL)
	}
	if timeout <= 0 {
		timeout = Timeout
	}
	tls := u.Scheme == "https"
	port := u.Port()
	if port == "" {
		port = map[bool]string{true: "443", false: "80"}[tls]
	}
	addr := net.JoinHostPort(u.Hostname(), port)
	r := &Client{base: trimSlash(u.EscapedPath()), host: u.Host, scheme: u.Scheme, timeout: timeout,
		basic: "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))}
	r.client = &fasthttp.HostClient{
		Addr: addr, IsTLS: tls, Name: "pocketforge-explorer",
		// a dial that hangs (a filtered port) is bounded by the request's timeout as well
		Dial:        func(a string) (net.Conn, error) { return fasthttp.DialTimeout(a, timeout) },
		ReadTimeout: timeout, WriteTimeout: timeout, MaxConnWaitTimeout: timeout,
		MaxIdleConnDuration: 30 * time.Second,
		// the path is forwarded as the client encoded it (home%3Aalice stays so)
		DisablePathNormalizing: true,
	}
	return r, nil
}

func trimSlash(p string) string {
	for len(p) > 0 && p[len(p)-1] == '/' {
		p = p[:len(p)-1]
	}
	return p
}

// Do sends req to the remote build service and fills resp, within the timeout. req's URI is
// rewritten to the remote's (base path in front, the remote's host); a request without an
// Authorization header gets the configured credentials. The answer streams when resp asks
// for it (resp.StreamBody: the proxy does) — the timeout still bounds the whole exchange, so a
// running job's log streams for at most that long. The error of a request that timed out is
// ErrTimeout (errors.Is).
func (r *Client) Do(req *fasthttp.Request, resp *fasthttp.Response) error {
	target := r.scheme + "://" + r.host + r.base + string(req.RequestURI())
	req.SetRequestURI(target)
	if len(req.Header.Peek(fasthttp.HeaderAuthorization)) == 0 {
		req.Header.Set(fasthttp.HeaderAuthorization, r.basic)
	}
	err := r.client.DoTimeout(req, resp, r.timeout)
	if err == nil {
		return nil
	}
	if isTimeout(err) {
		return fmt.Errorf("%w (%s at %s): %v", ErrTimeout, r.timeout, r.host, err)
	}
	return fmt.Errorf("the build service at %s could not be reached: %w", r.host, err)
}

// ErrTimeout is a remote build service that did not answer in time: 504 wherever it
// surfaces (the proxy's <status>, the explorer's {"error"}).
var ErrTimeout = errors.New("the build service did not answer in time")

func isTimeout(err error) bool {
	if errors.Is(err, fasthttp.ErrTimeout) || errors.Is(err, fasthttp.ErrDialTimeout) ||
		errors.Is(err, fasthttp.ErrTLSHandshakeTimeout) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
