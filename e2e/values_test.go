package e2e

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/values"
)

// The deployment values end to end: `pocketforge values …` on the built binary (exit codes,
// output lines, stdin), and /deploy/values on a running one (outside the explorer's rate limit,
// errors in the {"error"} format).

func TestValuesValidateCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("good.yaml", "speaker:\n  logLevel: debug\n  memberlist:\n    mlBindPort: 7947\n")
	goodJSON := write("good.json", `{"crds": {"validationFailurePolicy": "Ignore"}}`)
	bad := write("bad.yaml", "speaker:\n  tolerateMaster: \"yes\"\n  memberlist:\n    mlBindPort: \"7946\"\nmetrics:\n  metricsRule:\n    addressPoolUsage:\n      thresholds: [{percent: 101}]\n")
	dup := write("dup.yaml", "crds: {}\ncrds: {}\n")
	huge := write("huge.yaml", "# "+strings.Repeat("x", values.MaxSize)+"\n")
	chart := "../values/testdata/metallb-values.renamed.yaml" // the tests run in e2e/

	badLines := bad + ": /metrics/metricsRule/addressPoolUsage/thresholds/0/percent: maximum: got 101, want at most 100\n" +
		bad + ": /speaker/memberlist/mlBindPort: type: got string \"7946\", want integer\n" +
		bad + ": /speaker/tolerateMaster: type: got string \"yes\", want boolean\n"
	cases := []struct {
		name     string
		args     []string
		stdin    string
		code     int
		stdout   string // exact, when set
		contains string // in stdout
		stderr   string // in stderr
	}{
		{name: "valid file", args: []string{good}, code: 0, stdout: good + ": valid\n"},
		{name: "valid JSON file", args: []string{goodJSON}, code: 0, stdout: goodJSON + ": valid\n"},
		{name: "the chart's defaults alone", args: []string{"--no-defaults", chart}, code: 0, stdout: chart + ": valid\n"},
		{name: "one line per violation, sorted", args: []string{bad}, code: 1, stdout: badLines, stderr: "pocketforge: 1 of 1 values files not valid"},
		{name: "several files", args: []string{good, bad, goodJSON}, code: 1,
			stdout: good + ": valid\n" + badLines + goodJSON + ": valid\n", stderr: "1 of 3 values files not valid"},
		{name: "stdin valid", args: []string{"-"}, stdin: "controller: {logLevel: warn}\n", code: 0, stdout: "<stdin>: valid\n"},
		{name: "stdin invalid", args: []string{"-"}, stdin: "controller: {logLevel: verbose}\n", code: 1,
			stdout: "<stdin>: /controller/logLevel: enum: got \"verbose\", want one of \"all\", \"debug\", \"info\", \"warn\", \"error\", \"none\"\n"},
		{name: "stdin empty is the defaults", args: []string{"-"}, code: 0, stdout: "<stdin>: valid\n"},
		{name: "no defaults: the file alone", args: []string{"--no-defaults", good}, code: 1,
			contains: good + ": /controller: required: missing required key \"controller\"\n"},
		{name: "null removes a required default", args: []string{"-"}, stdin: "speaker: {tolerateMaster: null}", code: 1,
			stdout: "<stdin>: /speaker/tolerateMaster: required: missing required key \"tolerateMaster\"\n"},
		{name: "parse error with line and column", args: []string{dup}, code: 1,
			stdout: dup + ": line 2, column 1: duplicate key \"crds\" (first at line 1, column 1)\n"},
		{name: "YAML syntax error", args: []string{"-"}, stdin: "speaker:\n  image: [a\n", code: 1, contains: "<stdin>: line 3, column 1: did not find expected"},
		{name: "binary", args: []string{"-"}, stdin: "\x89PNG\r\n\x1a\n\x00", code: 1, stdout: "<stdin>: line 1, column 1: not UTF-8 text (byte 0x89); a values file is YAML or JSON text\n"},
		{name: "not a mapping", args: []string{"-"}, stdin: "- a\n", code: 1, contains: "the top level must be a mapping"},
		{name: "over 1 MiB", args: []string{huge}, code: 1, stdout: huge + ": values document larger than 1048576 bytes (1 MiB)\n"},
		{name: "missing file", args: []string{filepath.Join(dir, "nope.yaml")}, code: 1, contains: "no such file"},
		{name: "a directory", args: []string{dir}, code: 1, contains: "is a directory"},
		{name: "no file named", args: []string{}, code: 2, stderr: "requires at least 1 arg"}, // a usage error (issue 32)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCLIWithInput(t, c.stdin, append([]string{"values", "validate"}, c.args...)...)
			if code != c.code || (c.stdout != "" && out != c.stdout) || !strings.Contains(out, c.contains) || !strings.Contains(errOut, c.stderr) {
				t.Fatalf("exit %d, stdout:\n%s\nstderr: %s\nwant exit %d, stdout %q (containing %q), stderr containing %q",
					code, out, errOut, c.code, c.stdout, c.contains, c.stderr)
			}
		})
	}
}

func TestValuesSchemaAndDefaultsCLI(t *testing.T) {
	t.Parallel()
	code, schema, _ := runCLIWithInput(t, "", "values", "schema")
	var doc map[string]any
	if code != 0 || schema != string(values.Schema()) || json.Unmarshal([]byte(schema), &doc) != nil {
		t.Fatalf("values schema: exit %d, %d bytes", code, len(schema))
	}
	if doc["$schema"] != "https://json-schema.org/draft-07/schema#" {
		t.Fatalf("$schema %v", doc["$schema"])
	}
	code, defaults, _ := runCLIWithInput(t, "", "values", "defaults")
	if code != 0 || defaults != string(values.DefaultsYAML()) {
		t.Fatalf("values defaults: exit %d, %d bytes", code, len(defaults))
	}
	// What `values defaults` prints is a complete values file.
	if code, out, errOut := runCLIWithInput(t, defaults, "values", "validate", "--no-defaults", "-"); code != 0 || out != "<stdin>: valid\n" {
		t.Fatalf("the printed defaults: exit %d %s %s", code, out, errOut)
	}
	code, help, _ := runCLIWithInput(t, "", "--help")
	if code != 0 || !strings.Contains(help, "values") {
		t.Fatalf("--help does not list values: %s", help)
	}
}

// TestValuesHTTP: /deploy/values on the running binary: the documents, a validation, its errors in
// the {"error"} format, the 1 MiB limit, and no rate limit even when the explorer's is tiny.
func TestValuesHTTP(t *testing.T) {
	t.Parallel()
	p := start(t, "--ephemeral", "--explorer-rate", "2/1h")
	p.waitReady(t)

	resp, err := httpClient.Get(p.url + "/deploy/values/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/schema+json" {
		t.Fatalf("schema: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	cases := []struct {
		method, path, body string
		code               int
		want               string
	}{
		{"GET", "/deploy/values/defaults.yaml", "", 200, "validationFailurePolicy: Fail"},
		{"POST", "/deploy/values/validate", "speaker: {memberlist: {mlBindPort: \"7946\"}}", 200,
			`{"valid":false,"errors":[{"path":"/speaker/memberlist/mlBindPort","rule":"type","message":"got string \"7946\", want integer"}]}`},
		{"POST", "/deploy/values/validate?defaults=false", string(values.DefaultsYAML()), 200, `{"valid":true,"errors":[]}`},
		{"POST", "/deploy/values/validate", "a: 1\na: 2\n", 400, `{"error":"line 2, column 1: duplicate key \"a\" (first at line 1, column 1)","line":2,"column":1}`},
		{"POST", "/deploy/values/validate", "# " + strings.Repeat("x", values.MaxSize), 413, `{"error":"request body of 1048578 bytes; the limit here is 1048576 bytes (1 MiB)"}`}, // on its head (issue 32)
		{"GET", "/deploy/values/nope", "", 404, `{"error":"Not Found"}`},
		{"GET", "/deploy/values/validate", "", 405, `{"error":"Method Not Allowed"}`},
	}
	for _, c := range cases {
		code, body := request(t, c.method, p.url+c.path, "", strings.NewReader(c.body))
		if code != c.code || !strings.Contains(body, c.want) {
			t.Errorf("%s %s: %d %s\nwant %d with %s", c.method, c.path, code, body, c.code, c.want)
		}
	}
	// The explorer's limit (2 an hour here) is in force on /api and does not touch /deploy.
	for i := 0; i < 3; i++ {
		request(t, "GET", p.url+"/api/products/packages?q=pocket", "", nil)
	}
	if code, _ := request(t, "GET", p.url+"/api/products/packages?q=pocket", "", nil); code != http.StatusTooManyRequests {
		t.Fatalf("the explorer's limit is not in force (%d); the check below proves nothing", code)
	}
	for i := 0; i < 10; i++ {
		req, _ := http.NewRequest("POST", p.url+"/deploy/values/validate", strings.NewReader("rbac: {create: false}"))
		resp, err := httpClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("X-RateLimit-Limit") != "" {
			t.Fatalf("validation %d: %d, X-RateLimit-Limit %q", i, resp.StatusCode, resp.Header.Get("X-RateLimit-Limit"))
		}
	}
}
