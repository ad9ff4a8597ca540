package api

import (
	"sort"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/apidocs"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// notDocumented are the bound routes an OpenAPI document deliberately leaves out, by API, as
// "METHOD path" (a path ending in / covers what is below it; * is any method), each with why.
var notDocumented = map[string]map[string]string{
	"cloud": {
		"* /oauth/":          "the login server: login.linode.com in the real service, not part of its API document (README, OAuth section)",
		"GET /v4/test-panic": "bound by the tests' own app (newEnv) to test panic recovery",
	},
	"explorer": {
		"* /obs":     "the read-only build proxy under --explorer-proxy-prefix: the build API's own paths (build.txt), under a configurable prefix",
		"* /obs/":    "the build proxy, as above",
		"GET /badge": "a bare /badge answers an error badge: every address under /badge answers one, but this is no endpoint",
	},
}

// wildcards are the documented paths served by one fiber wildcard route: the document names
// the forms, fiber binds one route for all of them.
var wildcards = map[string]string{
	"GET /badge/{project}.svg":           "GET /badge/{path}",
	"GET /badge/{project}/{package}.svg": "GET /badge/{path}",
	"GET /badge/{project}/_table.svg":    "GET /badge/{path}",
}

// TestOpenAPIDocumentsMatchRoutes fails when a bound route of the cloud or explorer API is
// missing from its document, or the document names a route that is not bound: every documented
// operation is expanded under each of its servers (/v4 and /v4beta for the cloud API, unless the
// operation names one) and compared with the app's routes, :param written as {param}.
func TestOpenAPIDocumentsMatchRoutes(t *testing.T) {
	e := newEnv(t, nil)
	d := &Deps{proxyPrefix: e.cfg.ExplorerProxyPrefix}
	for _, doc := range apidocs.Documents {
		t.Run(doc.Name, func(t *testing.T) {
			ix, err := apidocs.Parse(doc.YAML())
			if err != nil {
				t.Fatal(err)
			}
			documented := map[string]bool{}
			for _, op := range ix.Operations {
				for _, s := range op.Servers {
					key := op.Method + " " + strings.TrimSuffix(s, "/") + op.Path
					if w, ok := wildcards[key]; ok {
						key = w
					}
					documented[key] = true
				}
			}
			bound := map[string]bool{}
			used := map[string]bool{}
		routes:
			for _, r := range boundRoutes(e.app, d, doc.Name) {
				for ex := range notDocumented[doc.Name] {
					if excepted(ex, r) {
						used[ex] = true
						continue routes
					}
				}
				bound[r.Method+" "+apidocs.OpenAPIPath(r.Path)] = true
			}
			for _, k := range sortedKeys(bound) {
				if !documented[k] {
					t.Errorf("bound but not in %s.yaml: %s", doc.Name, k)
				}
			}
			for _, k := range sortedKeys(documented) {
				if !bound[k] {
					t.Errorf("in %s.yaml but not bound: %s", doc.Name, k)
				}
			}
			for ex := range notDocumented[doc.Name] {
				if !used[ex] {
					t.Errorf("exception %q matches no bound route: remove it", ex)
				}
			}
		})
	}
}

// excepted reports whether route r falls under the exception "METHOD prefix".
func excepted(ex string, r apidocs.Route) bool {
	method, prefix, _ := strings.Cut(ex, " ")
	if method != "*" && method != r.Method {
		return false
	}
	if strings.HasSuffix(prefix, "/") {
		return strings.HasPrefix(r.Path, prefix)
	}
	return r.Path == prefix
}

// TestBuildRouteListCoversRoutes fails when a bound route of the build API has no entry in the
// table of its XML documents, or the table names a route that is not bound.
func TestBuildRouteListCoversRoutes(t *testing.T) {
	e := newEnv(t, nil)
	bound := map[apidocs.Route]bool{}
	for _, r := range boundRoutes(e.app, &Deps{}, "build") {
		if r.Path == "/statistics/test-panic" { // bound by newEnv, not the build API
			continue
		}
		bound[r] = true
	}
	table := map[apidocs.Route]bool{}
	for _, r := range apidocs.BuildTable() {
		table[r] = true
		if !bound[r] {
			t.Errorf("in the build document table but not bound: %s %s", r.Method, r.Path)
		}
	}
	for r := range bound {
		if !table[r] {
			t.Errorf("bound but not in the build document table: %s %s", r.Method, r.Path)
		}
	}
}

// TestOpenAPIEndpoints: the documents answer without the bootstrap token, with their content
// types, and the docs page lists them.
func TestOpenAPIEndpoints(t *testing.T) {
	e := newEnv(t, nil)
	for _, c := range []struct{ path, ctype, body string }{
		{"/_appliance/openapi/cloud.yaml", "application/yaml; charset=utf-8", "openapi: 3.1.0"},
		{"/_appliance/openapi/explorer.yaml", "application/yaml; charset=utf-8", "openapi: 3.1.0"},
		{"/_appliance/openapi/build.txt", "text/plain; charset=utf-8", "GET     /source/{project}/_meta"},
		{"/docs", "text/html; charset=utf-8", "/_appliance/openapi/cloud.yaml"},
	} {
		got := apitest.Do(t, e.app, apitest.Request{Method: "GET", Path: c.path})
		if got.Status != 200 || got.Header.Get("Content-Type") != c.ctype || !strings.Contains(got.Body, c.body) {
			t.Errorf("GET %s: %d %q, want 200 %q with %q; body starts %.200q", c.path, got.Status,
				got.Header.Get("Content-Type"), c.ctype, c.body, got.Body)
		}
	}
	got := apitest.Do(t, e.app, apitest.Request{Method: "GET", Path: "/_appliance/openapi/build.txt"})
	for _, line := range strings.Split(got.Body, "\n") {
		if f := strings.Fields(line); len(f) == 4 && f[3] == "?" && f[1] != "/statistics/test-panic" {
			t.Errorf("build.txt names a route without its documents: %s", line)
		}
	}
	if got := apitest.Do(t, e.app, apitest.Request{Method: "GET", Path: "/_appliance/openapi/nope.yaml"}); got.Status != 401 && got.Status != 404 {
		t.Errorf("unknown document: %d", got.Status)
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
