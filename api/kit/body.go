package kit

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"

	"github.com/gofiber/fiber/v2"
)

// The server streams request bodies (fasthttp's StreamRequestBody): fasthttp hands a handler the
// head and leaves the body on the connection, so that a request whose credentials are missing or
// wrong is refused before its body is read (eight unauthenticated 250 MB uploads used to take
// 2 GB of memory). Every route reads its body through ReadBody: the APIs that authenticate call
// it right after authentication succeeded.
//
// A path that does not authenticate (the OAuth login server, the explorer API and its badges,
// the deploy API, the build proxy, the web pages) takes small bodies at most, bounded on the
// request's head (api's bodyCap: FormBody, DocumentBody): a declared length over the bound is
// refused 413 before a byte of the body is read, a chunked body is read only up to it, and a
// route that takes no body — and every 404 and 405 — never reads one (issue 32).

// The bounds of the bodies unauthenticated routes take.
const (
	// FormBody bounds a form: a sign-in, OAuth's token exchange, a form of the web pages.
	FormBody = 64 << 10
	// DocumentBody bounds a document sent without credentials: a values file to validate, a
	// spec file a read-only POST forwards through the build proxy.
	DocumentBody = 1 << 20
)

// ReadBody reads the request's streamed body into memory, once, so that c.Body(), form values
// and multipart forms work as before. A body that cannot be read completely is an error in the
// API's format — 413 past limit, 408 when the client stopped sending, 400 when it is malformed
// (a bad chunk, a broken multipart form) — never a body holding fasthttp's error text (what
// c.Body() would give on a failed stream).
func ReadBody(c *fiber.Ctx) error {
	return ReadBodyLimit(c, int64(c.App().Server().MaxRequestBodySize))
}

// ReadBodyLimit is ReadBody with a bound of its own (413 past limit bytes).
func ReadBodyLimit(c *fiber.Ctx, limit int64) error {
	req := c.Request()
	stream := c.Context().RequestBodyStream()
	if stream == nil {
		return nil
	}
	declared := req.Header.ContentLength() // -1: chunked
	if declared == 0 {
		req.ResetBody() // no body: drop the empty stream without reading it
		return nil
	}
	// The buffer grows as bytes arrive: a declared length is a promise, not an allocation.
	buf := bytes.NewBuffer(make([]byte, 0, min(max(declared, 512), 64<<10)))
	_, err := buf.ReadFrom(io.LimitReader(stream, limit+1))
	data := buf.Bytes()
	if err == nil && declared > 0 && len(data) < declared {
		err = io.ErrUnexpectedEOF
	}
	switch {
	case err != nil:
		req.SetBodyRaw(nil) // the stream is spent: nothing half-read reaches a handler
		c.Context().SetConnectionClose()
		return bodyError(err)
	case int64(len(data)) > limit:
		req.SetBodyRaw(nil)
		c.Context().SetConnectionClose()
		return Errorf(http.StatusRequestEntityTooLarge, "%s", http.StatusText(http.StatusRequestEntityTooLarge))
	}
	req.SetBodyRaw(data)
	if len(req.Header.MultipartFormBoundary()) > 0 {
		if _, err := req.MultipartForm(); err != nil {
			return Errorf(http.StatusBadRequest, "malformed multipart/form-data body")
		}
	}
	return nil
}

// bodyError names why a body could not be read.
func bodyError(err error) error {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return Errorf(http.StatusRequestTimeout, "the request body did not arrive in time")
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return Errorf(http.StatusBadRequest, "the request body ended early")
	}
	return Errorf(http.StatusBadRequest, "malformed request body (bad chunked encoding)")
}

// WithBody is a middleware that reads the body (ReadBody) before the handlers after it, for
// routes of an authenticating API that take no credentials (a newcomer's registration).
func WithBody(c *fiber.Ctx) error {
	if err := ReadBody(c); err != nil {
		return err
	}
	return c.Next()
}

// DrainBody settles a body no handler read (a refused request's): a small one (a declared
// length up to drainLimit) is read and dropped, so the connection can carry the next request;
// a larger or chunked one is never read — the connection closes after the answer instead.
func DrainBody(c *fiber.Ctx) {
	stream := c.Context().RequestBodyStream()
	if stream == nil {
		return
	}
	switch n := c.Request().Header.ContentLength(); {
	case n == 0:
	case n < 0 || n > drainLimit:
		c.Context().SetConnectionClose()
	default:
		if _, err := io.Copy(io.Discard, stream); err != nil {
			c.Context().SetConnectionClose()
		}
	}
	c.Request().ResetBody()
}

// drainLimit is the largest unread body that is read to keep its connection open.
const drainLimit = 64 << 10
