package kit

import (
	"bytes"
	"strconv"
	"unsafe"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// Header is a response header's name, normalized once as fasthttp writes it: c.Set copies and
// normalizes the name and scans the value for line breaks on every call, which for the headers
// every request carries (CORS, request id, rate limits) was a measurable share of a small GET.
// A value with a line break goes through fasthttp's own Set, which removes it, as before.
type Header []byte

// NewHeader is the header named name.
func NewHeader(name string) Header { return fasthttp.AppendNormalizedHeaderKey(nil, name) }

// Set sets the header on c's response to v.
func (h Header) Set(c *fiber.Ctx, v string) {
	h.SetBytes(c, unsafe.Slice(unsafe.StringData(v), len(v)))
}

// SetBytes sets the header on c's response to v (copied).
func (h Header) SetBytes(c *fiber.Ctx, v []byte) {
	if bytes.IndexByte(v, '\n') >= 0 || bytes.IndexByte(v, '\r') >= 0 {
		c.Response().Header.SetBytesKV(h, v)
		return
	}
	c.Response().Header.SetCanonical(h, v)
}

// SetInt sets the header on c's response to n in decimal.
func (h Header) SetInt(c *fiber.Ctx, n int64) {
	var b [20]byte
	c.Response().Header.SetCanonical(h, strconv.AppendInt(b[:0], n, 10))
}
