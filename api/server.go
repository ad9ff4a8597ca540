package api

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/config"
	"github.com/valyala/fasthttp"
)

// The server's defences against hostile and slow clients, set on fiber's fasthttp server:
//
//   - a request's head must arrive within --head-timeout, its body within the head timeout plus
//     its length at --min-upload-rate (a chunked body: --body-limit at that rate), so that
//     connections that trickle bytes are cut off instead of holding a file descriptor for ever;
//   - at most --max-conns connections are served at once (more are answered 503 and closed) and
//     at most --max-conns-per-ip from one client address (429, counted by api.Listener);
//   - bodies are streamed: a handler sees the head first, and the body is read only once the
//     credentials are good (kit.ReadBody); a Content-Length over the path's bound (bodyCap:
//     --body-limit, or a small one where nobody authenticates) is refused with 413 before
//     anything of the body is read;
//   - whatever fasthttp itself refuses (a head too large, a malformed request line or header, a
//     timeout) and a method fiber does not know are answered by the API that owns the path, in its
//     format, with a request id, an access-log line and a journal entry, like any other error.

// harden applies the settings above to app's server.
func harden(app *fiber.App, cfg *config.Config, d Deps) {
	srv := app.Server()
	srv.ReadTimeout = cfg.HeadTimeout
	if cfg.MaxConns > 0 {
		srv.Concurrency = cfg.MaxConns
	}
	srv.StreamRequestBody = true
	// A multipart body is parsed by kit.ReadBody after authentication, not by fasthttp before it.
	srv.DisablePreParseMultipartForm = true
	srv.HeaderReceived = func(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
		// fasthttp waits for the first bytes of a streamed body before it calls the handler,
		// even of one over the limit: such a request goes on with no body and a mark, and
		// refuseEarly answers it 413 at once (the connection then closes unread).
		h.Del(oversizeMark)
		n := h.ContentLength()
		if n == 0 || n == -2 { // no body (-2: neither length nor chunked)
			// nothing more to read: the head's deadline stands, and the clock read and timer
			// move of a new one are saved on the GETs that are most of the traffic
			return fasthttp.RequestConfig{}
		}
		path := pathOfTarget(h.RequestURI())
		bound := d.bodyCap(path, cfg.BodyLimit)
		if int64(n) > bound {
			h.Set(oversizeMark, strconv.Itoa(n))
			if int64(n) <= dropOversize && d.bodyBound(path) > 0 && cfg.HeadTimeout > 0 && cfg.MinUploadRate > 0 {
				// a form or document a little too long for a path without credentials: read and
				// dropped by refuseEarly, so that a client still sending it reads the 413
				return fasthttp.RequestConfig{ReadTimeout: bodyTimeout(cfg, n, int64(n))}
			}
			h.SetContentLength(0) // never read: the connection closes after the 413
			return fasthttp.RequestConfig{}
		}
		if cfg.HeadTimeout <= 0 || cfg.MinUploadRate <= 0 { // only in a hand-made Config
			return fasthttp.RequestConfig{}
		}
		return fasthttp.RequestConfig{ReadTimeout: bodyTimeout(cfg, n, bound)}
	}
	srv.ErrorHandler = func(fctx *fasthttp.RequestCtx, err error) { serverError(app, d, fctx, err) }
	// the bound a 413 names: a path's own, when it is tighter than --body-limit
	named := func(path string) int64 {
		if b := d.bodyBound(path); b < cfg.BodyLimit {
			return b
		}
		return 0
	}
	next := srv.Handler
	srv.Handler = func(fctx *fasthttp.RequestCtx) {
		if err := refuseEarly(fctx, named); err != nil {
			answerRaw(app, d, fctx, string(fctx.Path()), err)
			return
		}
		next(fctx)
	}
}

// bodyTimeout is how long the rest of a request may take once its head is in: the head timeout
// again plus the declared length at the slowest accepted upload rate (a chunked body may be as
// long as the body limit). Lengths over the limit are refused before their body is read anyway.
func bodyTimeout(cfg *config.Config, contentLength int, bound int64) time.Duration {
	n := int64(contentLength)
	if n < 0 || n > bound {
		n = bound
	}
	return cfg.HeadTimeout + time.Duration(n/cfg.MinUploadRate)*time.Second
}

// knownMethods are the methods fiber routes; any other reaches no route.
var knownMethods = map[string]bool{}

func init() {
	for _, m := range fiber.DefaultMethods {
		knownMethods[m] = true
	}
}

// refuseEarly is the check made before routing: an unknown method (fiber would answer a bare
// "Invalid http method") is a 405; a declared body over the limit is a 413, answered before it is
// read (naming the bound of a path without credentials, bound(path) > 0).
func refuseEarly(fctx *fasthttp.RequestCtx, bound func(path string) int64) error {
	if !knownMethods[string(fctx.Method())] {
		fctx.Response.Header.Set(fiber.HeaderAllow, "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS")
		return kit.Errorf(http.StatusMethodNotAllowed, "the method %s is not supported", clip(string(fctx.Method()), 32))
	}
	if n := fctx.Request.Header.Peek(oversizeMark); len(n) > 0 {
		fctx.SetConnectionClose()
		if stream := fctx.RequestBodyStream(); stream != nil && fctx.Request.Header.ContentLength() > 0 {
			// a body a little over the bound (dropOversize) is read into nothing first: a client
			// that writes its whole body before it reads — Go's, curl's — then gets the answer
			// instead of a connection reset
			_, _ = io.Copy(io.Discard, stream)
		}
		if b := bound(string(fctx.Path())); b > 0 { // a path without credentials: its bound is named
			return kit.Errorf(http.StatusRequestEntityTooLarge, "request body of %s bytes; the limit here is %d bytes (%s)", n, b, sizeText(b))
		}
		// worded as every other 413 is (clients and tests compare it)
		return kit.Errorf(http.StatusRequestEntityTooLarge, "%s", http.StatusText(http.StatusRequestEntityTooLarge))
	}
	return nil
}

// dropOversize is the largest declared body over its bound that is read and dropped before the
// 413 (see refuseEarly); a longer one is never read, and its connection closes.
const dropOversize = 8 << 20

// oversizeMark is the header HeaderReceived puts on a request whose Content-Length is over the
// limit, holding that length (a client's own is removed first).
const oversizeMark = "X-Pocketforge-Oversize-Body"

// serverError answers what fasthttp refused before any handler ran. fasthttp has reset the head
// of a request it could not parse, so the path comes from the raw request line its error quotes;
// an error that quotes none came after the head was parsed (a body, a timeout).
func serverError(app *fiber.App, d Deps, fctx *fasthttp.RequestCtx, err error) {
	if NothingRead(fctx.Conn()) { // no request came: nothing to answer in an API's format, log or journal
		fctx.Response.Reset()
		fctx.SetStatusCode(http.StatusRequestTimeout)
		fctx.SetConnectionClose()
		return
	}
	path := pathFromError(err.Error())
	if path == "" {
		path = pathOfTarget(fctx.Request.Header.RequestURI())
	}
	answerRaw(app, d, fctx, path, serverErrorOf(err))
}

// serverErrorOf maps fasthttp's errors to what a client is told (as fiber's own handler does,
// with the reasons worded for people).
func serverErrorOf(err error) error {
	var small *fasthttp.ErrSmallBuffer
	var ne net.Error
	switch {
	case errors.As(err, &small):
		return kit.Errorf(http.StatusRequestHeaderFieldsTooLarge, "the request head is larger than the limit of 16 KiB")
	case errors.As(err, &ne) && ne.Timeout(), strings.Contains(err.Error(), "timeout"):
		return kit.Errorf(http.StatusRequestTimeout, "the request did not arrive in time")
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		return kit.Errorf(http.StatusRequestEntityTooLarge, "%s", http.StatusText(http.StatusRequestEntityTooLarge))
	}
	return kit.Errorf(http.StatusBadRequest, "malformed request: %s", reasonOf(err))
}

// reasonOf is fasthttp's description of a malformed request without the request bytes it quotes
// (they would echo a client's input, credentials included, back and into logs).
func reasonOf(err error) string {
	msg := err.Error()
	if i := strings.IndexAny(msg, `"`); i > 0 {
		msg = msg[:i]
	}
	msg = strings.TrimSuffix(strings.TrimSpace(msg), " in")
	msg = strings.TrimSuffix(strings.TrimSpace(msg), ". Buffer size=")
	msg = strings.TrimPrefix(msg, "error when reading request headers: ")
	return clip(strings.TrimSpace(msg), 120)
}

// answerRaw answers a request outside fiber's routing with an error in the format of the API
// that owns path, with the request id, access-log line and journal entry of every other answer.
// The connection closes afterwards: what follows on it cannot be trusted to start a request.
func answerRaw(app *fiber.App, d Deps, fctx *fasthttp.RequestCtx, path string, err error) {
	start := time.Now()
	c := app.AcquireCtx(fctx)
	defer app.ReleaseCtx(c)
	id := kit.SetRequestID(c)
	ar := d.areaOf(path)
	answer(c, d, ar, id, err)
	fctx.SetConnectionClose()
	if fctx.Request.IsBodyStream() {
		fctx.Request.SetBodyRaw(nil) // never read: the connection closes
	}
	end := time.Now()
	record(c, d, ar, id, end, end.Sub(start))
}

// pathOfTarget is the path of a request target: origin form (/a/b?q), absolute form
// (http://host/a/b) or anything else (*, authority form) as "".
func pathOfTarget(target []byte) string {
	if i := bytes.Index(target, []byte("://")); i >= 0 {
		rest := target[i+3:]
		j := bytes.IndexByte(rest, '/')
		if j < 0 {
			return "/"
		}
		target = rest[j:]
	}
	if len(target) == 0 || target[0] != '/' {
		return ""
	}
	if i := bytes.IndexAny(target, "?#"); i >= 0 {
		target = target[:i]
	}
	return string(target)
}

// pathFromError finds the request line in a fasthttp error ("... contents: \"GET /v4/x HTTP/1.1
// \r\n..."), which quotes the start of the raw request with %q; "" when there is none.
func pathFromError(msg string) string {
	for i := range len(msg) {
		if msg[i] != '"' {
			continue
		}
		quoted, err := strconv.QuotedPrefix(msg[i:])
		if err != nil {
			continue
		}
		raw, err := strconv.Unquote(quoted)
		if err != nil {
			continue
		}
		line, _, _ := strings.Cut(raw, "\n")
		if _, rest, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
			target, _, _ := strings.Cut(rest, " ")
			if p := pathOfTarget([]byte(target)); p != "" {
				return p
			}
		}
	}
	return ""
}

// clip shortens s to at most n bytes of valid text.
func clip(s string, n int) string {
	if len(s) > n {
		s = s[:n] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}
