package web

import (
	"bytes"
	"strings"

	"github.com/a-h/templ"
	"github.com/gofiber/fiber/v2"
)

// The site: every page of the web interface is drawn inside one frame (Frame in site.templ:
// the navigation, the stylesheet, light and dark themes from the system's preference). Each
// area of the interface (explorer, build monitor, console, appliance, values) keeps its pages
// in its own package as templ components (a .templ file, and the _templ.go that templ
// generates from it beside it), each a func(View, data) that draws itself inside Frame, so the
// areas share the look and nothing else. templ compiles the pages to Go: nothing is parsed at
// run time, and no text/template reflection (whose MethodByName keeps every exported method of
// every reachable type in the binary, issue 31) is linked in. templ escapes text and attribute
// values, and sanitizes every string in a URL attribute (href, src, action, data, …) as
// templ.URL does, as html/template did: a value that is not a relative, http(s), mailto, tel or
// ftp address (a javascript: URL from someone's data) is drawn as about:invalid. No page uses
// templ.SafeURL or templ.Raw.

// Section names the area a page belongs to, highlighted in the navigation.
type Section string

// The sections of the navigation, in its order.
const (
	SectionHome      Section = "home"
	SectionExplorer  Section = "explorer"
	SectionProjects  Section = "projects"
	SectionRequests  Section = "requests"
	SectionConsole   Section = "console"
	SectionAppliance Section = "appliance"
	SectionValues    Section = "values"
	SectionDocs      Section = "docs"
)

// View is what every page gets besides its own data: what the frame draws, and what its forms
// and absolute links need.
type View struct {
	Title   string
	Section Section
	// CSRF is the token every form of the page carries (CSRFField writes the hidden field).
	CSRF string
	// Base is the external URL without a trailing slash: absolute links start with it.
	Base string
}

// Page is a page ready to draw but for its View, which Site.Render supplies.
type Page func(View) templ.Component

// PageOf is the page draw draws over data: an area's templ component of (View, data).
func PageOf[D any](draw func(View, D) templ.Component, data D) Page {
	return func(v View) templ.Component { return draw(v, data) }
}

// Site is what every area's handlers share: the external URL the pages link with.
type Site struct {
	// ExternalURL is the base of every absolute URL (--external-url).
	ExternalURL func() string
}

// Base is the external URL without a trailing slash.
func (s *Site) Base() string {
	if s == nil || s.ExternalURL == nil {
		return ""
	}
	return strings.TrimSuffix(s.ExternalURL(), "/")
}

// Render writes page with status, drawn for a View titled title in section. Pages are never
// cached by a browser or proxy: they show live state, and some show secrets once. A page that
// fails to draw is the error Render returns, and nothing is sent.
func (s *Site) Render(c *fiber.Ctx, status int, title string, section Section, page Page) error {
	v := View{Title: title, Section: section, CSRF: CSRFToken(c), Base: s.Base()}
	var buf bytes.Buffer
	if err := page(v).Render(c.UserContext(), &buf); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set("X-Content-Type-Options", "nosniff")
	c.Set("X-Frame-Options", "SAMEORIGIN")
	c.Set("Referrer-Policy", "same-origin")
	return c.Status(status).Send(buf.Bytes())
}
