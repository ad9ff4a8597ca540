package kit

import (
	"encoding/base64"
	"net/url"
	"strings"
	"unsafe"

	"github.com/gofiber/fiber/v2"
)

// Replay is what of a request's head its "replay as curl" line needs: the headers that change
// an answer and the form of its credentials, never the credentials.
type Replay struct {
	// Auth is the credential's form: "Bearer", "Token" or another scheme of an Authorization
	// header, "Basic" with BasicUser the login, "Cookie" for a cookie only; "" none.
	Auth        string
	BasicUser   string
	ContentType string
	Accept      string
	// XFilter is the cloud API's X-Filter header (it selects what a list returns).
	XFilter string
	// Body says the request had one; bodies are not journaled, so the line reads it from a
	// file named body.
	Body bool
}

// ReplayOf takes the replay details from c's request head. Its strings view the request's
// buffers, valid until the request is answered: Journal.Add copies them.
func ReplayOf(c *fiber.Ctx) Replay {
	h := &c.Request().Header
	r := Replay{ContentType: View(h.ContentType()), Accept: View(h.Peek(fiber.HeaderAccept)),
		XFilter: View(h.Peek("X-Filter"))}
	n := h.ContentLength() // -1: chunked
	r.Body = len(c.Request().Body()) > 0 || n > 0 || n == -1
	if auth := h.Peek(fiber.HeaderAuthorization); len(auth) > 0 {
		scheme, value, _ := strings.Cut(strings.TrimSpace(View(auth)), " ")
		r.Auth = scheme
		if !saneScheme(scheme) {
			r.Auth = "***"
		}
		if strings.EqualFold(scheme, "Basic") {
			r.Auth = "Basic"
			if raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(value)); err == nil {
				r.BasicUser, _, _ = strings.Cut(string(raw), ":")
			}
		}
	} else if len(h.Peek(fiber.HeaderCookie)) > 0 {
		r.Auth = "Cookie"
	}
	return r
}

// saneScheme accepts an authorization scheme made of letters, digits and '-'.
func saneScheme(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Curl is a curl command line that sends the request to base again: method, URL, the headers
// of Replay, credentials masked (-H 'Authorization: Bearer ***', -u 'alice:***') and
// --data-binary @body for a body (not journaled: the caller supplies it). user is the
// authenticated user, the login a cookie-only request signed in as.
func (r Replay) Curl(base, method, path, query, user string) string {
	if base == "" {
		base = "http://localhost"
	}
	var b strings.Builder
	b.WriteString("curl")
	switch method {
	case "GET":
	case "HEAD":
		b.WriteString(" --head")
	default:
		if !saneScheme(method) {
			method = shellQuote(method)
		}
		b.WriteString(" -X " + method)
	}
	u := base + (&url.URL{Path: path}).EscapedPath()
	if query != "" {
		u += "?" + query
	}
	b.WriteString(" " + shellQuote(u))
	switch {
	case r.Auth == "Basic" && r.BasicUser != "":
		b.WriteString(" -u " + shellQuote(r.BasicUser+":***"))
	case r.Auth == "Cookie" && user != "":
		b.WriteString(" -u " + shellQuote(user+":***"))
	case r.Auth == "Cookie":
		b.WriteString(" -H 'Cookie: ***'")
	case r.Auth != "":
		b.WriteString(" -H " + shellQuote("Authorization: "+r.Auth+" ***"))
	}
	for _, h := range [...][2]string{{"Content-Type", r.ContentType}, {"Accept", r.Accept}, {"X-Filter", r.XFilter}} {
		if h[1] != "" {
			b.WriteString(" -H " + shellQuote(h[0]+": "+h[1]))
		}
	}
	if r.Body {
		b.WriteString(" --data-binary @body")
	}
	return b.String()
}

// shellQuote quotes s for a POSIX shell: in single quotes, each single quote inside closing the
// quotes, escaped, and opening them again.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// View is b as a string without a copy, valid while b's bytes are (a request's, until it is
// answered).
func View(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
