// Package apitest is the one HTTP scenario runner of the API tests: it sends a request through a
// fiber app in memory (app.Test) and checks status, body and headers, so every API's scenario
// tables read the same way.
package apitest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
)

// Request is one request of a scenario.
type Request struct {
	Method string // GET when empty
	Path   string
	Body   string
	Bearer string // sent as "Authorization: Bearer …" when set
	Header map[string]string
}

// Response is what came back.
type Response struct {
	Status int
	Header http.Header
	Body   string
}

// Do sends r through app.
func Do(t testing.TB, app *fiber.App, r Request) Response {
	t.Helper()
	if r.Method == "" {
		r.Method = http.MethodGet
	}
	req := httptest.NewRequest(r.Method, r.Path, strings.NewReader(r.Body))
	if r.Body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.Bearer != "" {
		req.Header.Set("Authorization", "Bearer "+r.Bearer)
	}
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	resp, err := app.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: string(data)}
}

// Expect is what a scenario's response must show.
type Expect struct {
	Status   int
	Exact    string            // the whole body, when set
	Contains []string          // substrings of the body
	Excludes []string          // substrings the body must not have
	Header   map[string]string // exact header values
}

// Check reports every way got differs from e (a wrong status stops the scenario).
func (e Expect) Check(t testing.TB, got Response) {
	t.Helper()
	if got.Status != e.Status {
		t.Fatalf("status %d, want %d; body %s", got.Status, e.Status, got.Body)
	}
	if e.Exact != "" && got.Body != e.Exact {
		t.Errorf("body %s\nwant %s", got.Body, e.Exact)
	}
	for _, w := range e.Contains {
		if !strings.Contains(got.Body, w) {
			t.Errorf("body %s\nlacks %s", got.Body, w)
		}
	}
	for _, n := range e.Excludes {
		if strings.Contains(got.Body, n) {
			t.Errorf("body %s\nmust not contain %s", got.Body, n)
		}
	}
	for k, v := range e.Header {
		if h := got.Header.Get(k); h != v {
			t.Errorf("header %s = %q, want %q", k, h, v)
		}
	}
}
