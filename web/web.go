// Package web holds what every area of the server-rendered site shares: the site frame the
// pages are drawn in (site.templ), the home and error pages, CSRF protection, the static
// files, the web addresses other packages link to and the one sign-in redirect guard
// (paths.go: MonitorURL, LogURL, SafeNext), and the cloud login server's sign-in, consent,
// password-setup and message pages (login.templ). Each area's pages live in a package of their
// own (explorerweb, buildweb, consoleweb, applianceweb, valuesweb, docsweb), mounted by
// api/web.go and calling the same domains as the APIs. Pages are templ components compiled to
// Go (each .templ file's _templ.go beside it; docs/operations.md says how to regenerate them)
// and plain HTML forms that work without JavaScript, so curl, a test's HTTP client and a
// browser can all drive them.
package web

import (
	"bytes"
	"context"
	"slices"

	"github.com/a-h/templ"
)

// LoginServerPage is one of the login server's pages: Login, Setup or Message.
type LoginServerPage interface {
	component() templ.Component
}

// Render draws one of the login server's pages.
func Render(page LoginServerPage) ([]byte, error) {
	var buf bytes.Buffer
	if err := page.component().Render(context.Background(), &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Login is the sign-in and consent page: who asks for what, and the request to carry through
// the form.
type Login struct {
	ClientLabel  string
	ThumbnailURL string   // "" when the client has none
	Scopes       []string // as the user will grant them
	Error        string   // shown above the form after a failed attempt
	Username     string   // kept after a failed attempt
	// Hidden carries the authorization request's parameters through the POST (in the order of
	// their names).
	Hidden map[string]string
}

func (l Login) component() templ.Component { return loginPage(l) }

// Setup is the password-setup page.
type Setup struct {
	Username string
	Token    string
	Error    string
}

func (s Setup) component() templ.Component { return setupPage(s) }

// Message is a page of a title and a sentence, for errors that cannot be sent back to the
// client (an unknown client, a redirect URI that does not match) and for outcomes.
type Message struct {
	Title string
	Text  string
}

func (m Message) component() templ.Component { return messagePage(m) }

// sortedKeys are m's keys in order, so a page draws a map the same way every time.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
