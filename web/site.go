package web

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/url"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"
)

// The site: every page of the web interface is drawn inside one frame (templates/site.html:
// the navigation, the stylesheet, light and dark themes from the system's preference), with a
// View as its data. Each area of the interface (explorer, build monitor, console, appliance,
// values) keeps its own templates in its own package and parses them over the frame with
// NewPages, so the areas share the look and nothing else.

//go:embed templates/site.html
var siteFrame embed.FS

// frame is the parsed site frame every area's pages are cloned from, parsed on first use like
// the pages themselves.
var frame = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("site").Funcs(funcs).ParseFS(siteFrame, "templates/site.html"))
})

// funcs are the template functions every page may use.
var funcs = template.FuncMap{
	"pathEscape":  url.PathEscape,
	"queryEscape": url.QueryEscape,
	"join":        strings.Join,
}

// Section names the area a page belongs to, highlighted in the navigation.
type Section string

// The sections of the navigation, in its order.
const (
	SectionHome      Section = "home"
	SectionExplorer  Section = "explorer"
	SectionProjects  Section = "projects"
	SectionConsole   Section = "console"
	SectionAppliance Section = "appliance"
	SectionValues    Section = "values"
	SectionDocs      Section = "docs"
)

// View is what every page template gets: the frame's data and the page's own in Data.
type View struct {
	Title   string
	Section Section
	// CSRF is the token every form of the page carries (CSRFField writes the hidden field).
	CSRF string
	// Base is the external URL without a trailing slash: absolute links start with it.
	Base string
	Data any
}

// Pages are one area's templates over the site frame.
type Pages struct{ t func() *template.Template }

// NewPages returns an area's templates (patterns in fsys) over a copy of the site frame,
// parsed when a page is first drawn: every area declares its pages as a package variable, and
// parsing them all in package init cost every command, `version` and `healthcheck` included,
// 1.7 MB and a few ms before main (issue 31). A template that does not parse panics on its
// first use (a programming error, caught by the area's tests, which draw every page).
func NewPages(fsys fs.FS, patterns ...string) *Pages {
	return &Pages{t: sync.OnceValue(func() *template.Template {
		t := template.Must(frame().Clone())
		return template.Must(t.ParseFS(fsys, patterns...))
	})}
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

// Render writes the page name of pages with status, data in a View titled title. Pages are
// never cached by a browser or proxy: they show live state, and some show secrets once.
func (s *Site) Render(c *fiber.Ctx, status int, pages *Pages, name, title string, section Section, data any) error {
	v := View{Title: title, Section: section, CSRF: CSRFToken(c), Base: s.Base(), Data: data}
	var buf bytes.Buffer
	if err := pages.t().ExecuteTemplate(&buf, name, v); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set("X-Content-Type-Options", "nosniff")
	c.Set("X-Frame-Options", "SAMEORIGIN")
	c.Set("Referrer-Policy", "same-origin")
	return c.Status(status).Send(buf.Bytes())
}
