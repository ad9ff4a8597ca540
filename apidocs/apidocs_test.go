package apidocs

import (
	"context"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestDocumentsAreValidOpenAPI31 loads each document with kin-openapi and validates it as
// OpenAPI 3.1 (it checks a 3.1 document by the 3.1 rules), refs resolved. Examples are not checked
// against their schemas: the real cloud document's date-time examples carry no zone
// (2018-01-01T00:01:01), as the real service's answers (and the appliance's) do; nor are
// patterns compiled: they are ECMA-262 regexes (the User schema's has a lookahead), which Go's
// RE2 does not take.
func TestDocumentsAreValidOpenAPI31(t *testing.T) {
	for _, d := range Documents {
		t.Run(d.Name, func(t *testing.T) {
			doc, err := openapi3.NewLoader().LoadFromData(d.YAML())
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(doc.OpenAPI, "3.1.") || !doc.IsOpenAPI31OrLater() {
				t.Errorf("openapi %q, want 3.1.x", doc.OpenAPI)
			}
			if err := doc.Validate(context.Background(), openapi3.DisableExamplesValidation(), openapi3.DisableSchemaPatternValidation()); err != nil {
				t.Error(err)
			}
			ix, err := Parse(d.YAML())
			if err != nil {
				t.Fatal(err)
			}
			if n := doc.Paths.Len(); n == 0 || len(ix.Operations) < n {
				t.Errorf("%d paths, %d operations listed", n, len(ix.Operations))
			}
		})
	}
}

func TestParseServers(t *testing.T) {
	ix, err := Parse(Cloud())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, op := range ix.Operations {
		got[op.Method+" "+op.Path] = strings.Join(op.Servers, ",")
	}
	for k, want := range map[string]string{
		"GET /account":                  "/v4,/v4beta",
		"GET /account/maintenance":      "/v4beta",
		"POST /account/payment-methods": "/v4",
	} {
		if got[k] != want {
			t.Errorf("%s servers %q, want %q", k, got[k], want)
		}
	}
}

func TestOpenAPIPath(t *testing.T) {
	for in, want := range map[string]string{
		"/source/:project/_meta": "/source/{project}/_meta",
		"/badge/*":               "/badge/{path}",
		"/a/:b?":                 "/a/{b}",
		"/":                      "/",
	} {
		if got := OpenAPIPath(in); got != want {
			t.Errorf("OpenAPIPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBuildRoutesUnknown(t *testing.T) {
	list := BuildRoutes([]Route{{"GET", "/source/:project/_meta"}, {"GET", "/nope"}, {"GET", "/nope"}})
	if len(list) != 2 || !list[1].Known || list[1].Out != "project.rng" || list[0].Known {
		t.Fatalf("%+v", list)
	}
	text := string(BuildText(list))
	if !strings.Contains(text, "GET     /source/{project}/_meta  -        project.rng") && !strings.Contains(text, "/source/{project}/_meta") {
		t.Error(text)
	}
}
