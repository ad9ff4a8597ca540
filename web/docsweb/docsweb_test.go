package docsweb

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/apidocs"
	"github.com/pocketforge/pocketforge/web"
)

// TestDocsPage: the page lists every document's operations by tag with links to the raw
// documents, the build routes with their documents, escapes what it draws, and stays small.
func TestDocsPage(t *testing.T) {
	app := fiber.New()
	Bind(app, Deps{Site: &web.Site{}, BuildRoutes: func() []apidocs.BuildRoute {
		return apidocs.BuildRoutes([]apidocs.Route{{Method: "GET", Path: "/source/:project/_meta"}, {Method: "GET", Path: "/x/<script>alert(1)</script>"}})
	}})
	resp, err := app.Test(httptest.NewRequest("GET", "/docs", nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	body := string(b)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{
		`href="/_appliance/openapi/cloud.yaml"`, `href="/_appliance/openapi/explorer.yaml"`, `href="/_appliance/openapi/build.txt"`,
		`<h3 id="cloud-Account">Account</h3>`, `<h3 id="explorer-Badges">Badges</h3>`,
		`/databases/mysql/instances/{instanceId}`, `/badge/{project}/_table.svg`,
		`/source/{project}/_meta</td><td>-</td><td>project.rng</td>`,
		`(/v4beta only)`, `(deprecated)`,
		`&lt;script&gt;alert(1)&lt;/script&gt;`, `<a href="/docs" aria-current="page">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(body, "<script>alert") {
		t.Error("a route path was drawn unescaped")
	}
	if strings.Count(body, "<script") != 1 || !strings.Contains(body, `<script src="/static/docsfilter.js" defer></script>`) ||
		strings.Contains(body, "http://") || strings.Contains(body, "https://cdn") {
		t.Error("the page loads something from elsewhere or runs a script of its own but the filter's")
	}
	for _, want := range []string{`<details class="card api" id="api-cloud" data-testid="api-cloud"><summary><h2>`,
		`<details class="card api" id="api-build" data-testid="api-build"><summary><h2>Build service API</h2>`,
		`<input type="search" id="docs-filter"`, `<div class="docs-group"><h3 id="cloud-Account">`} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if len(b) > 100<<10 {
		t.Errorf("page is %d bytes, over 100 KB", len(b))
	}
}

// TestDocsPageSize: with every build route listed the page stays under 100 KB.
func TestDocsPageSize(t *testing.T) {
	app := fiber.New()
	Bind(app, Deps{Site: &web.Site{}, BuildRoutes: func() []apidocs.BuildRoute { return apidocs.BuildRoutes(apidocs.BuildTable()) }})
	resp, err := app.Test(httptest.NewRequest("GET", "/docs", nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if len(b) > 100<<10 {
		t.Errorf("page is %d bytes, over 100 KB", len(b))
	}
	t.Logf("%d bytes", len(b))
}
