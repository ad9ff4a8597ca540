package api

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/buildapi"
	"github.com/pocketforge/pocketforge/api/cloudapi"
	"github.com/pocketforge/pocketforge/api/explorerapi"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/api/valuesapi"
	"github.com/pocketforge/pocketforge/web"
)

// area is one API as far as routing of errors and the journal go.
type area struct {
	name     string
	prefixes []string
	render   func(c *fiber.Ctx, err error) error
	// authFirst says the API's routes authenticate on the request's head and read the body
	// themselves once the credentials are good (kit.ReadBody in their auth middleware); for
	// every other area the front middleware reads it before routing.
	authFirst bool
	// maxBody bounds the body a request to the area may carry, on its head (bodyCap): the
	// areas that do not authenticate take small ones (kit.FormBody, kit.DocumentBody); 0 is
	// --body-limit, for an API that reads a body only once the credentials are good.
	maxBody int64
	// documents are the paths of the area that take a document (kit.DocumentBody) where the
	// rest take forms.
	documents []string
}

// areas decides which API a path belongs to, so that every error — a handler's, fiber's 404 and
// 405, a body over the limit, a panic — is answered in that API's own format: JSON errors under
// /v4, a <status> document under /source, {"error"} under /api, the OAuth error object under
// /oauth (before the cloud, which lists /oauth among its prefixes too).
var areas = []area{
	{name: "appliance", prefixes: []string{"/_appliance", publicMetricsPath}, render: kit.RenderSimple, authFirst: true},
	// the cloud's login server: its forms are read before anyone is known
	{name: "cloud", prefixes: cloudapi.OAuthPrefixes, render: cloudapi.RenderOAuthError, maxBody: kit.FormBody},
	{name: "cloud", prefixes: cloudapi.Prefixes, render: cloudapi.RenderError, authFirst: true},
	{name: "build", prefixes: buildapi.Prefixes, render: buildapi.RenderError, authFirst: true},
	// the explorer's routes and badges take no body at all; a form's bound answers any
	{name: "explorer", prefixes: explorerapi.Prefixes, render: explorerapi.RenderError, maxBody: kit.FormBody},
	{name: "deploy", prefixes: valuesapi.Prefixes, render: valuesapi.RenderError, maxBody: kit.DocumentBody},
	// the public download tree takes no body
	{name: "download", prefixes: buildapi.DownloadPrefixes, render: buildapi.RenderDownloadError, maxBody: kit.FormBody},
}

// other serves paths no API owns: the web interface's, whose errors are pages (a friendly 404
// for an unknown page), with the status and words the APIs would use.
// Its forms are small; the values page takes a values document.
var other = area{name: "web", render: renderPage, maxBody: kit.FormBody, documents: []string{"/values"}}

// renderPage answers a failed page request with the web interface's error page (a build
// backend's failure, which the build results pages read through the explorer, with the
// explorer's status and words: explorerapi.WireError).
func renderPage(c *fiber.Ctx, err error) error {
	err = explorerapi.WireError(err)
	status := kit.Status(err)
	return web.ErrorPage(c, status, kit.Reason(err, status))
}

// proxyArea is the explorer's build proxy, under its configured prefix: it answers as the build
// service does (its refusals are <status> documents osc can read), and it reads a body only
// for the read-only POSTs it forwards — a write is refused on its head, body unread.
// Its bound is the proxy's own (kit.DocumentBody, when it reads): a write of any length is
// answered 405 on its head, with the methods it forwards.
var proxyArea = area{name: "explorer", render: buildapi.RenderError, authFirst: true}

// areaOf returns the API that owns path, the build proxy's prefix first.
func (d *Deps) areaOf(path string) *area {
	if d.proxyPrefix != "" && under(path, d.proxyPrefix) {
		return &proxyArea
	}
	return areaOf(path)
}

// under reports whether path is prefix or below it.
func under(path, prefix string) bool {
	return strings.HasPrefix(path, prefix) && (len(path) == len(prefix) || path[len(prefix)] == '/')
}

// areaOf returns the API among areas that owns path: by its first segment, which is all any
// area's prefix is (areaByRoot), else by trying each prefix in order.
func areaOf(path string) *area {
	if areaByRoot != nil {
		root := path
		if i := strings.IndexByte(path[min(1, len(path)):], '/'); i >= 0 {
			root = path[:i+1]
		}
		if ar, ok := areaByRoot[root]; ok {
			return ar
		}
		return &other
	}
	return areaByPrefix(path)
}

// areaByRoot maps each area's prefixes to the first area that has it — the one areaByPrefix
// finds — when every prefix is one segment ("/v4", "/badge"); else it is nil. One map lookup
// per request instead of comparing the path with some forty prefixes.
var areaByRoot = func() map[string]*area {
	m := map[string]*area{}
	for i := range areas {
		for _, p := range areas[i].prefixes {
			if len(p) < 2 || p[0] != '/' || strings.IndexByte(p[1:], '/') >= 0 {
				return nil
			}
			if _, ok := m[p]; !ok {
				m[p] = &areas[i]
			}
		}
	}
	return m
}()

// areaByPrefix is areaOf by trying each area's prefixes in order.
func areaByPrefix(path string) *area {
	for i := range areas {
		for _, p := range areas[i].prefixes {
			if under(path, p) {
				return &areas[i]
			}
		}
	}
	return &other
}

// renderError is the app's fiber.ErrorHandler.
func (d *Deps) renderError(c *fiber.Ctx, err error) error {
	return d.areaOf(c.Path()).render(c, err)
}
