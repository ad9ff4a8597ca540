package valuesapi

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/values"
)

// newApp is the deployment-values API alone, with the app settings that matter here: the JSON
// encoder and the error renderer every /deploy error goes through, and a body limit above
// values.MaxSize so that the handler's own 413 is what a client sees.
func newApp() *fiber.App {
	app := fiber.New(fiber.Config{
		ErrorHandler: RenderError, JSONEncoder: kit.MarshalJSON, BodyLimit: 4 * values.MaxSize,
		DisableStartupMessage: true,
	})
	Bind(app)
	return app
}

// scenario is one request and what must come back; check looks further into the body.
type scenario struct {
	name string
	apitest.Request
	apitest.Expect
	check func(t *testing.T, body string)
}

func run(t *testing.T, scenarios []scenario) {
	app := newApp()
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			start := time.Now()
			got := apitest.Do(t, app, s.Request)
			s.Expect.Check(t, got)
			if s.check != nil {
				s.check(t, got.Body)
			}
			// A bound on pathological cost, not a benchmark: generous enough for -race on a
			// busy 2-core machine.
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("took %v", took)
			}
		})
	}
}

// yaml is a POST of a YAML body.
func yaml(path, body string) apitest.Request {
	return apitest.Request{Method: "POST", Path: path, Body: body, Header: map[string]string{"Content-Type": "application/yaml"}}
}

// raw is a POST with no Content-Type of its own (apitest would say JSON).
func raw(path, body, contentType string) apitest.Request {
	return apitest.Request{Method: "POST", Path: path, Body: body, Header: map[string]string{"Content-Type": contentType}}
}

// violations checks a 200 validation answer: valid is false and the errors are exactly these
// "path rule" pairs, in order.
func violations(want ...string) func(*testing.T, string) {
	return func(t *testing.T, body string) {
		var got struct {
			Valid  bool
			Errors []struct{ Path, Rule, Message string }
		}
		if err := json.Unmarshal([]byte(body), &got); err != nil {
			t.Fatal(err)
		}
		var pairs []string
		for _, e := range got.Errors {
			if e.Message == "" {
				t.Errorf("no message: %+v", e)
			}
			pairs = append(pairs, e.Path+" "+e.Rule)
		}
		if got.Valid != (len(want) == 0) || strings.Join(pairs, "\n") != strings.Join(want, "\n") {
			t.Fatalf("valid %v, errors:\n%s\nwant:\n%s", got.Valid, strings.Join(pairs, "\n"), strings.Join(want, "\n"))
		}
	}
}

const validate = "/deploy/values/validate"

func TestDocuments(t *testing.T) {
	run(t, []scenario{
		{name: "schema", Request: apitest.Request{Path: "/deploy/values/schema.json"},
			Expect: apitest.Expect{Status: 200, Exact: string(values.Schema()),
				Header: map[string]string{"Content-Type": "application/schema+json"}}},
		{name: "defaults", Request: apitest.Request{Path: "/deploy/values/defaults.yaml"},
			Expect: apitest.Expect{Status: 200, Exact: string(values.DefaultsYAML()),
				Header: map[string]string{"Content-Type": "application/yaml"}}},
		{name: "HEAD schema", Request: apitest.Request{Method: "HEAD", Path: "/deploy/values/schema.json"},
			Expect: apitest.Expect{Status: 200}},
		{name: "unknown document is a JSON 404", Request: apitest.Request{Path: "/deploy/values/schema.yaml"},
			Expect: apitest.Expect{Status: 404, Exact: `{"error":"Not Found"}`}},
		{name: "GET validate is a JSON 405", Request: apitest.Request{Path: validate},
			Expect: apitest.Expect{Status: 405, Exact: `{"error":"Method Not Allowed"}`}},
		{name: "POST schema is a JSON 405", Request: yaml("/deploy/values/schema.json", "a: 1"),
			Expect: apitest.Expect{Status: 405, Contains: []string{`"error"`}}},
	})
}

func TestValidate(t *testing.T) {
	bomb := "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i <= 9; i++ {
		bomb += fmt.Sprintf("a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 10), ", "))
	}
	run(t, []scenario{
		{name: "empty body is the defaults: valid", Request: raw(validate, "", ""),
			Expect: apitest.Expect{Status: 200, Exact: `{"valid":true,"errors":[]}`}},
		{name: "YAML override", Request: yaml(validate, "speaker:\n  logLevel: debug\n  memberlist:\n    mlBindPort: 7947\n"),
			Expect: apitest.Expect{Status: 200, Exact: `{"valid":true,"errors":[]}`}},
		{name: "the defaults themselves", Request: yaml(validate+"?defaults=false", string(values.DefaultsYAML())),
			Expect: apitest.Expect{Status: 200, Exact: `{"valid":true,"errors":[]}`}},
		{name: "JSON body", Request: apitest.Request{Method: "POST", Path: validate, Body: `{"crds": {"validationFailurePolicy": "Ignore"}}`},
			Expect: apitest.Expect{Status: 200, Exact: `{"valid":true,"errors":[]}`}},
		{name: "YAML without a Content-Type (curl --data-binary)", Request: raw(validate, "speaker: {tolerateMaster: \"no\"}", "application/x-www-form-urlencoded"),
			Expect: apitest.Expect{Status: 200, Contains: []string{`"valid":false`,
				`{"path":"/speaker/tolerateMaster","rule":"type","message":"got string \"no\", want boolean"}`}}},
		{name: "invalid values are a 200 with the violations, sorted",
			Request: yaml(validate, "speaker: {memberlist: {mlBindPort: \"7946\"}}\ncontroller: {logLevel: verbose}\nimagePullSecrets: [{name: a, extra: b}]\n"),
			Expect:  apitest.Expect{Status: 200, Contains: []string{`"valid":false`, `"message":"got \"verbose\", want one of \"all\", \"debug\", \"info\", \"warn\", \"error\", \"none\""`}},
			check:   violations("/controller/logLevel enum", "/imagePullSecrets/0/extra additionalProperties", "/speaker/memberlist/mlBindPort type")},
		{name: "threshold above 100", Request: yaml(validate, "metrics: {metricsRule: {addressPoolUsage: {thresholds: [{percent: 101}]}}}"),
			Expect: apitest.Expect{Status: 200, Contains: []string{`"message":"got 101, want at most 100"`}},
			check:  violations("/metrics/metricsRule/addressPoolUsage/thresholds/0/percent maximum")},
		{name: "null removes a required default", Request: yaml(validate, "speaker: {tolerateMaster: null}"),
			Expect: apitest.Expect{Status: 200}, check: violations("/speaker/tolerateMaster required")},
		{name: "defaults=false validates the file alone", Request: yaml(validate+"?defaults=false", "speaker: {logLevel: debug}"),
			Expect: apitest.Expect{Status: 200},
			check:  violations("/controller required", "/speaker/image required", "/speaker/serviceAccount required", "/speaker/tolerateMaster required")},
		{name: "defaults=0 too", Request: raw(validate+"?defaults=0", "", ""),
			Expect: apitest.Expect{Status: 200}, check: violations("/controller required", "/speaker required")},
		{name: "defaults=true is the default", Request: raw(validate+"?defaults=true", "", ""),
			Expect: apitest.Expect{Status: 200, Exact: `{"valid":true,"errors":[]}`}},
		{name: "defaults must be a boolean", Request: raw(validate+"?defaults=maybe", "", ""),
			Expect: apitest.Expect{Status: 400, Exact: `{"error":"defaults must be true or false, not \"maybe\""}`}},

		{name: "duplicate key: 400 with line and column", Request: yaml(validate, "speaker: {}\ncontroller: {}\nspeaker: {}\n"),
			Expect: apitest.Expect{Status: 400, Exact: `{"error":"line 3, column 1: duplicate key \"speaker\" (first at line 1, column 1)","line":3,"column":1}`}},
		{name: "YAML syntax error", Request: yaml(validate, "speaker:\n  image: {tag: x\n"),
			Expect: apitest.Expect{Status: 400, Contains: []string{`"line":3`, `"column":1`, `did not find expected`}}},
		{name: "declared JSON that is not JSON gets JSON's error", Request: apitest.Request{Method: "POST", Path: validate, Body: "speaker: {}"},
			Expect: apitest.Expect{Status: 400, Contains: []string{`"error":"line 1, column 1: invalid JSON: invalid character 's'`}}},
		{name: "JSON duplicate key", Request: apitest.Request{Method: "POST", Path: validate, Body: `{"crds": {}, "crds": {}}`},
			Expect: apitest.Expect{Status: 400, Contains: []string{`duplicate key \"crds\" (first at line 1, column 2)`, `"line":1,"column":14`}}},
		{name: "top level is a list", Request: yaml(validate, "- controller\n"),
			Expect: apitest.Expect{Status: 400, Contains: []string{"the top level must be a mapping", `"line":1,"column":1`}}},
		{name: "top level is a scalar", Request: raw(validate, "hello", "text/plain"),
			Expect: apitest.Expect{Status: 400, Contains: []string{"not a string"}}},
		{name: "binary body", Request: raw(validate, "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "application/octet-stream"),
			Expect: apitest.Expect{Status: 400, Contains: []string{"not UTF-8 text"}}},
		{name: "NUL bytes", Request: raw(validate, "nameOverride: a\x00", ""),
			Expect: apitest.Expect{Status: 400, Contains: []string{"binary data", `"column":16`}}},
		{name: "alias bomb refused", Request: yaml(validate, bomb),
			Expect: apitest.Expect{Status: 400, Contains: []string{"aliases expand to more than"}}},
		{name: "deep nesting refused", Request: yaml(validate, "a: "+strings.Repeat("[", 5000)+strings.Repeat("]", 5000)),
			Expect: apitest.Expect{Status: 400, Contains: []string{"nest deeper than 256 levels"}}},
		{name: "exactly 1 MiB is read", Request: yaml(validate, "# "+strings.Repeat("x", values.MaxSize-3)+"\n"),
			Expect: apitest.Expect{Status: 200, Exact: `{"valid":true,"errors":[]}`}},
		{name: "over 1 MiB is 413", Request: yaml(validate, "# "+strings.Repeat("x", values.MaxSize)+"\n"),
			Expect: apitest.Expect{Status: 413, Contains: []string{`{"error":"values document of 1048579 bytes; the limit is 1048576 bytes (1 MiB)"}`}}},
	})
}

func TestFormatOf(t *testing.T) {
	cases := []struct {
		contentType string
		want        values.Format
	}{
		{"application/json", values.JSON},
		{"application/json; charset=utf-8", values.JSON},
		{"application/merge-patch+json", values.JSON},
		{"application/yaml", values.YAML},
		{"application/x-yaml", values.YAML},
		{"text/yaml; charset=utf-8", values.YAML},
		{"application/x-www-form-urlencoded", values.Auto},
		{"text/plain", values.Auto},
		{"", values.Auto},
		{";;;", values.Auto},
	}
	for _, c := range cases {
		t.Run(c.contentType, func(t *testing.T) {
			if got := formatOf(c.contentType); got != c.want {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}
