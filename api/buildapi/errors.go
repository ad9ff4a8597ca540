// Package buildapi serves the build service API (/source, /build, /request, /search, …) in the wire
// format the osc client reads: XML documents and <status> errors.
package buildapi

import (
	"encoding/xml"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
)

// Prefixes are the root paths the build API owns (the seed's endpoint tables); errors under them
// are rendered by RenderError.
var Prefixes = []string{
	"/about", "/architectures", "/attribute", "/build", "/comment", "/comments", "/configuration",
	"/distributions", "/group", "/issue_tracker", "/issue_trackers", "/message", "/person",
	"/published", "/request", "/result", "/search", "/source", "/statistics", "/status",
	"/status_message", "/status_messages", "/tag", "/trigger", "/user",
}

// status is the build service's <status> document.
type status struct {
	XMLName xml.Name `xml:"status"`
	Code    string   `xml:"code,attr"`
	Summary string   `xml:"summary"`
}

// defaultCodes names the code of an error that carries none, by HTTP status (the build service's
// own names where it has one: authentication_required, not_found).
var defaultCodes = map[int]string{
	http.StatusBadRequest:                  "bad_request",
	http.StatusUnauthorized:                "authentication_required",
	http.StatusForbidden:                   "forbidden",
	http.StatusNotFound:                    "not_found",
	http.StatusMethodNotAllowed:            "method_not_allowed",
	http.StatusRequestTimeout:              "request_timeout",
	http.StatusConflict:                    "conflict",
	http.StatusRequestEntityTooLarge:       "request_too_large",
	http.StatusTooManyRequests:             "too_many_requests",
	http.StatusRequestHeaderFieldsTooLarge: "request_header_fields_too_large",
	http.StatusServiceUnavailable:          "service_unavailable",
}

// RenderError writes err as <status code="…"><summary>…</summary></status> with the code also in
// X-Opensuse-Errorcode, which osc reads; osc prints the summary to the user, so it is a sentence.
func RenderError(c *fiber.Ctx, err error) error {
	st := kit.Status(err)
	code := kit.Code(err)
	if code == "" {
		code = defaultCodes[st]
	}
	if code == "" {
		code = "internal_error"
	}
	summary := kit.Reason(err, st)
	if st == http.StatusNotFound && code == "not_found" && summary == http.StatusText(st) {
		summary = "Not found: " + c.Path()
	}
	body := renderStatus(code, summary)
	c.Set("X-Opensuse-APIVersion", APIVersion)
	c.Set("X-Opensuse-Errorcode", code)
	c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
	return c.Status(st).Send(body)
}

// textEscaper escapes only what XML text requires (&, <, >), as the real service writes its
// summaries: osc prints an error's summary after undoing exactly these three, so an escaped
// quote would reach the user as "&#39;".
var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// renderStatus is the <status> error document. The code goes into an attribute (quotes escaped
// there); the summary is made valid XML text first (no control characters, valid UTF-8).
func renderStatus(code, summary string) []byte {
	var attr strings.Builder
	_ = xml.EscapeText(&attr, []byte(code))
	summary = strings.ToValidUTF8(summary, "\uFFFD")
	summary = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
			return -1
		}
		return r
	}, summary)
	return []byte(`<status code="` + attr.String() + `"><summary>` + textEscaper.Replace(summary) + "</summary></status>")
}
