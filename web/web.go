// Package web holds the server-rendered pages (go:embed templates): for now the cloud login
// server's sign-in and consent page, the password-setup page and a message page. Pages are
// plain HTML forms that work without JavaScript, so curl, a test's HTTP client and a browser
// can all drive them.
package web

import (
	"bytes"
	"embed"
	"html/template"
	"sync"
)

//go:embed templates/*.html
var files embed.FS

// pages are parsed on first use, not in package init, which every command pays (issue 31).
var pages = sync.OnceValue(func() *template.Template {
	return template.Must(template.ParseFS(files, "templates/*.html"))
})

// Render executes the named page ("login.html", "setup.html", "message.html") with data.
func Render(name string, data any) ([]byte, error) {
	var buf bytes.Buffer
	if err := pages().ExecuteTemplate(&buf, name, data); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Login is the data of login.html: who asks for what, and the request to carry through the form.
type Login struct {
	ClientLabel  string
	ThumbnailURL string   // "" when the client has none
	Scopes       []string // as the user will grant them
	Error        string   // shown above the form after a failed attempt
	Username     string   // kept after a failed attempt
	// Hidden carries the authorization request's parameters through the POST.
	Hidden map[string]string
}

// Setup is the data of setup.html.
type Setup struct {
	Username string
	Token    string
	Error    string
}

// Message is the data of message.html: a title and a sentence, for errors that cannot be sent
// back to the client (an unknown client, a redirect URI that does not match) and for outcomes.
type Message struct {
	Title string
	Text  string
}
