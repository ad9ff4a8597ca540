package explorerapi

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/explorersvc/remote"
	"github.com/valyala/fasthttp"
)

// Proxy is the read-only build proxy's configuration (the seed's "Build backend proxy"):
// /{Prefix}/source/… and /{Prefix}/build/… are forwarded to Backend signed in as User, never
// as the caller; /{Prefix}/request/… is always an empty request list. The proxy is off when
// Backend is nil.
type Proxy struct {
	// Prefix is where the proxy answers (--explorer-proxy-prefix, /obs by default).
	Prefix string
	// Backend answers the forwarded requests: the appliance's build API in process, or a
	// remote build service (explorersvc/remote's Client).
	Backend Backend
	// Reachable decides the projects the proxy reaches (explorersvc's ProxyReachable: the
	// explorer's follow list); nil lets every project through to the build API's own rules.
	Reachable func(project string) error
	// User and Password are the build service credentials of every forwarded request
	// (--explorer-backend-user, --explorer-backend-password).
	User, Password string
}

// proxy holds what the proxy keeps between requests: the Basic credentials, and the build
// service's session cookie, replayed as osc replays it so the backend does not start a
// session per request.
type proxy struct {
	Proxy
	basic   string
	session atomic.Pointer[string]
}

// sessionCookie is the build service's session cookie (buildapi's).
const sessionCookie = "openSUSE_session"

// forwardedHeaders are the caller's headers a forwarded request keeps: what content it takes
// and sends. Authorization and Cookie are the caller's credentials and never leave; the rest
// (Host, connection handling, X-Forwarded-For) describe the caller's hop, not the proxy's.
var forwardedHeaders = []string{fiber.HeaderAccept, fiber.HeaderContentType, fiber.HeaderUserAgent,
	fiber.HeaderIfNoneMatch, fiber.HeaderIfModifiedSince}

// droppedAnswerHeaders are the backend's headers the caller does not get: the backend's
// session and challenge (they are the explorer's, not the caller's), and what the server
// sets again for the caller's own connection.
var droppedAnswerHeaders = map[string]bool{
	"Set-Cookie": true, "Www-Authenticate": true, "Connection": true, "Content-Length": true,
	"Transfer-Encoding": true, "Date": true, "Server": true,
}

// emptyCollection is the answer to everything under /request: OBS's empty request list.
const emptyCollection = "<collection matches=\"0\"/>\n"

// serve is the proxy's one handler, behind the rate limit. Every refusal comes before the
// body is read — a write with a body of 100 MB is answered 405 from its head, and the front
// middleware then closes the connection instead of reading what was never wanted.
func (p *proxy) serve(c *fiber.Ctx) error {
	raw := string(c.Request().URI().PathOriginal())
	raw = "/" + strings.TrimLeft(raw, "/") // as the front middleware treats //obs
	rest, ok := strings.CutPrefix(raw, p.Prefix)
	if !ok || rest != "" && rest[0] != '/' {
		return kit.Errorf(http.StatusBadRequest, "Malformed percent-encoding in the path")
	}
	path, err := parseProxyPath(rest)
	if err != nil {
		return err
	}
	method := c.Method()
	requests := requestList(path.segs)
	if !requests && (len(path.segs) == 0 || path.segs[0] != "source" && path.segs[0] != "build") {
		return &kit.Error{Status: http.StatusNotFound, Code: "not_found",
			Reason: fmt.Sprintf("Not found: %s (the build proxy serves %s/source, %s/build and %s/request)", clipText(c.Path(), 200), p.Prefix, p.Prefix, p.Prefix)}
	}
	readOnly := method == fiber.MethodGet || method == fiber.MethodHead
	if !readOnly && !(method == fiber.MethodPost && !requests && readOnlyPost(path.segs, c.Request().URI().QueryArgs())) {
		return p.refuse(c, method, path)
	}
	if requests {
		c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
		return c.SendString(emptyCollection)
	}
	if err := p.reachable(c, path); err != nil {
		return WireError(err) // answered by the build API's renderer: see WireError
	}
	// a read-only POST's body (_buildinfo's spec file), anonymous: a document's bound
	if err := kit.ReadBodyLimit(c, kit.DocumentBody); err != nil {
		return err
	}
	return p.forward(c, path)
}

// refuse is the 405 of a method the proxy does not forward, with the methods it does.
func (p *proxy) refuse(c *fiber.Ctx, method string, path proxyPath) error {
	allow := "GET, HEAD"
	if postShape(path.segs) {
		allow = "GET, HEAD, POST"
	}
	c.Set(fiber.HeaderAllow, allow)
	what := "it forwards GET and HEAD only"
	if allow != "GET, HEAD" {
		what = "here it forwards GET, HEAD and the POSTs that only read (cmd=diff, linkdiff, showlinked, getprojectservices; _buildinfo, _builddepinfo, _result)"
	}
	return &kit.Error{Status: http.StatusMethodNotAllowed, Code: "method_not_allowed",
		Reason: fmt.Sprintf("The build proxy is read-only: %s %s is not allowed; %s", clipText(method, 16), clipText(c.Path(), 200), what)}
}

// reachable checks the project the path names and any other project the query names (the
// ones not reachable answer the build service's own 404).
func (p *proxy) reachable(c *fiber.Ctx, path proxyPath) error {
	if p.Reachable == nil {
		return nil
	}
	// a first segment starting with _ is no project (OBS's names never start so): /build/_workerstatus
	if len(path.segs) > 1 && !strings.HasPrefix(path.segs[1], "_") {
		if err := p.Reachable(path.segs[1]); err != nil {
			return err
		}
	}
	args := c.Request().URI().QueryArgs()
	for _, name := range projectParams {
		for _, v := range args.PeekMulti(name) {
			if err := p.Reachable(string(v)); err != nil {
				return err
			}
		}
	}
	return nil
}

// forward sends the request to the backend with the explorer's credentials and copies the
// answer back unchanged: status, body, Content-Type, X-Opensuse-Errorcode and every other
// header but the backend's session and challenge.
func (p *proxy) forward(c *fiber.Ctx, path proxyPath) error {
	req := fasthttp.AcquireRequest()
	defer fasthttp.ReleaseRequest(req)
	resp := fasthttp.AcquireResponse()
	// a remote backend's answer is passed on as it arrives (a running job's log), as the
	// in-process one's is; within the remote's timeout, which then ends the stream
	resp.StreamBody = true
	in := c.Request()
	req.Header.SetMethod(c.Method())
	uri := path.raw
	if uri == "" {
		uri = "/"
	}
	if q := in.URI().QueryString(); len(q) > 0 {
		uri += "?" + string(q)
	}
	req.SetRequestURI(uri)
	for _, h := range forwardedHeaders {
		if v := in.Header.Peek(h); len(v) > 0 {
			req.Header.SetBytesV(h, v)
		}
	}
	req.Header.Set(fiber.HeaderAuthorization, p.basic)
	if s := p.session.Load(); s != nil {
		req.Header.SetCookie(sessionCookie, *s)
	}
	if body := in.Body(); len(body) > 0 {
		req.SetBodyRaw(body)
	}
	if err := p.Backend.Do(req, resp); err != nil {
		fasthttp.ReleaseResponse(resp)
		return backendFailed(err)
	}
	p.keepSession(resp)
	if resp.StatusCode() == http.StatusUnauthorized {
		fasthttp.ReleaseResponse(resp)
		return kit.Errorf(http.StatusInternalServerError,
			"The build service refused the explorer's credentials (--explorer-backend-user %s); the operator has to fix them", p.User)
	}
	out := c.Response()
	out.SetStatusCode(resp.StatusCode())
	resp.Header.VisitAll(func(k, v []byte) {
		if !droppedAnswerHeaders[string(k)] {
			out.Header.SetBytesKV(k, v)
		}
	})
	if resp.IsBodyStream() {
		// handed over to the caller's answer, which closes it; resp is left to the collector,
		// since releasing it would close the stream now
		out.SetBodyStream(resp.BodyStream(), -1)
		return nil
	}
	out.SetBody(resp.Body())
	fasthttp.ReleaseResponse(resp)
	return nil
}

// keepSession remembers a new session cookie from the backend.
func (p *proxy) keepSession(resp *fasthttp.Response) {
	var ck fasthttp.Cookie
	ck.SetKey(sessionCookie)
	if resp.Header.Cookie(&ck) && len(ck.Value()) > 0 {
		v := string(ck.Value())
		p.session.Store(&v)
	}
}

func newProxy(cfg Proxy) *proxy {
	p := &proxy{Proxy: cfg}
	p.basic = "Basic " + base64.StdEncoding.EncodeToString([]byte(cfg.User+":"+cfg.Password))
	return p
}

// clipText shortens what a client sent before it is quoted back.
func clipText(s string, n int) string {
	if len(s) > n {
		s = s[:n] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}

// backendFailed is the answer when the build service gave none: 504 when it did not answer in
// time (a remote one, remote.ErrTimeout), 500 when it could not be reached or failed — the
// statuses the seed names for a backend that is slow or down (it names no 502).
func backendFailed(err error) error {
	if errors.Is(err, remote.ErrTimeout) {
		return kit.Errorf(http.StatusGatewayTimeout, "%v", err)
	}
	return kit.Errorf(http.StatusInternalServerError, "The build service did not answer: %v", err)
}
