package explorerapi

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/internal/textdiff"
	"github.com/pocketforge/pocketforge/packaging/resolve"
)

// GET /api/projects/<p>/_result and GET /api/backend-config over the built demo world: whole
// answers against goldens (testdata/results_*.xml, backend_config_*.json; UPDATE_GOLDEN=1
// rewrites them), the filters, and every refusal in the explorer's error shape.

// resultsScenario is one request, its status, and the golden its body must equal ("" for
// none) or substrings it must hold.
type resultsScenario struct {
	name, path string
	status     int
	golden     string
	contains   []string
	excludes   []string
}

func TestProjectResults(t *testing.T) {
	e := newResultsEnv(t)
	unfiltered := e.get(t, "/api/projects/devel:tools/_result").Body
	cases := []resultsScenario{
		{name: "every repository and arch", path: "/api/projects/devel:tools/_result", status: 200,
			golden: "results_devel_tools.xml"},
		{name: "unresolvable with its details", path: "/api/projects/devel:libs/_result", status: 200,
			golden: "results_devel_libs.xml"},
		{name: "one repository and arch", path: "/api/projects/Pocket:1.0/_result?repos=standard&archs=aarch64", status: 200,
			golden: "results_pocket_standard_aarch64.xml"},
		{name: "a branch project, percent-encoded", path: "/api/projects/home%3Aalice%3Abranches%3Adevel%3Atools/_result", status: 200,
			golden: "results_alice_branch.xml"},
		{name: "status filter keeps the results, drops other packages", path: "/api/projects/devel:tools/_result?status=failed,excluded", status: 200,
			golden: "results_devel_tools_failed_excluded.xml"},
		{name: "status repeated is the comma list", path: "/api/projects/devel:tools/_result?status=failed&status=excluded", status: 200,
			golden: "results_devel_tools_failed_excluded.xml"},
		{name: "a status no package has", path: "/api/projects/devel:tools/_result?status=broken", status: 200,
			contains: []string{`<result project="devel:tools" repository="standard" arch="x86_64"`}, excludes: []string{"<status "}},
		{name: "archs as a comma list", path: "/api/projects/devel:tools/_result?archs=aarch64,x86_64", status: 200,
			contains: []string{unfiltered}},
		{name: "archs repeated", path: "/api/projects/devel:tools/_result?archs=x86_64&archs=aarch64&repos=standard", status: 200,
			contains: []string{unfiltered}},
		{name: "an unknown repository picks nothing", path: "/api/projects/devel:tools/_result?repos=nope", status: 200,
			contains: []string{"</resultlist>\n"}, excludes: []string{"<result "}},
		{name: "lastbuild=0 asks for nothing unsupported", path: "/api/projects/devel:tools/_result?lastbuild=0", status: 200,
			contains: []string{unfiltered}},

		{name: "unknown project", path: "/api/projects/no:such/_result", status: 404,
			golden: "results_unknown_project.json"},
		{name: "restricted project is not found alike", path: "/api/projects/" + secretProject + "/_result", status: 404,
			contains: []string{`{"error":"project 'Pocket:secret' not found"}`}},
		{name: "lastbuild from the cache", path: "/api/projects/devel:tools/_result?lastbuild=1", status: 400,
			golden: "results_lastbuild.json"},
		{name: "oldstate from the cache", path: "/api/projects/devel:tools/_result?oldstate=e3eb943bc4c40cc06a0f9c3b6af85a2a", status: 400,
			golden: "results_oldstate.json"},
		{name: "lastbuild on an unknown project is still the 400", path: "/api/projects/no:such/_result?lastbuild=true", status: 400,
			contains: []string{"lastbuild is not supported"}},
		{name: "unknown status code", path: "/api/projects/devel:tools/_result?status=green", status: 400,
			golden: "results_bad_status.json"},
		{name: "unknown status among good ones", path: "/api/projects/devel:tools/_result?status=succeeded,,bogus", status: 400,
			contains: []string{"unknown status 'bogus'"}},

		{name: "empty lists filter nothing", path: "/api/projects/devel:tools/_result?repos=&archs=,&status=", status: 200,
			contains: []string{unfiltered}},
		{name: "dot-dot project", path: "/api/projects/%2e%2e/_result", status: 404,
			contains: []string{`{"error":"project '..' not found"}`}},
		{name: "slash in an encoded project", path: "/api/projects/a%2Fb/_result", status: 404},
		{name: "invalid UTF-8 project", path: "/api/projects/%ff%fe/_result", status: 404},
		{name: "very long project", path: "/api/projects/" + strings.Repeat("x", 2000) + "/_result", status: 404},
		{name: "empty project", path: "/api/projects//_result", status: 404},

		{name: "backend configuration", path: "/api/backend-config", status: 200,
			golden: "backend_config.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { e.check(t, c) })
	}
}

// check sends c and compares: a 200 of _result is the resultlist XML with a state that is the
// hash of the document without it; every other answer is JSON, a 4xx exactly {"error": …}.
func (e *resultsEnv) check(t *testing.T, c resultsScenario) {
	t.Helper()
	got := e.get(t, c.path)
	if got.Status != c.status {
		t.Fatalf("GET %s: status %d, want %d: %s", c.path, got.Status, c.status, got.Body)
	}
	xmlAnswer := c.status == 200 && strings.Contains(c.path, "/_result")
	if xmlAnswer {
		if ct := got.Header.Get("Content-Type"); ct != "application/xml; charset=utf-8" {
			t.Errorf("Content-Type %q, want application/xml; charset=utf-8", ct)
		}
		checkResultState(t, got.Body)
	} else {
		checkJSON(t, got)
	}
	for _, s := range c.contains {
		if !strings.Contains(got.Body, s) {
			t.Errorf("GET %s: body lacks %q:\n%s", c.path, s, got.Body)
		}
	}
	for _, s := range c.excludes {
		if strings.Contains(got.Body, s) {
			t.Errorf("GET %s: body has %q:\n%s", c.path, s, got.Body)
		}
	}
	switch {
	case c.golden != "" && xmlAnswer:
		checkGolden(t, c.path, c.golden, []byte(got.Body))
	case c.golden != "":
		checkJSONGolden(t, c.path, c.golden, got.Body)
	}
}

// stateAttr finds the resultlist's state attribute.
var stateAttr = regexp.MustCompile(`^<resultlist state="([0-9a-f]{32})">`)

// checkResultState: the state is the hash of the document with an empty state, as the build
// API computes it.
func checkResultState(t testing.TB, body string) {
	t.Helper()
	m := stateAttr.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no state attribute: %.200s", body)
	}
	if want := resolve.StateHash(strings.Replace(body, m[1], "", 1)); m[1] != want {
		t.Errorf("state %s, want %s (the hash of the document without it)", m[1], want)
	}
}

// checkGolden compares body with testdata/<file>, or writes it there with UPDATE_GOLDEN=1.
func checkGolden(t testing.TB, path, file string, body []byte) {
	t.Helper()
	file = filepath.Join("testdata", file)
	if update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, body, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (UPDATE_GOLDEN=1 creates it)", err)
	}
	if !bytes.Equal(want, body) {
		t.Errorf("GET %s differs from %s:\n%s", path, file, textdiff.Unified(want, body, 3))
	}
}

// checkJSONGolden compares a JSON answer, indented (json.Indent keeps the keys in the
// answer's order), with its golden file.
func checkJSONGolden(t testing.TB, path, file, body string) {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(body), "", "  "); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, path, file, append(buf.Bytes(), '\n'))
}

// TestResultsFollow: --explorer-follow narrows the cache to the projects it picks, and a
// restricted project stays out even when a pattern picks it; the ones left out answer 404 like
// unknown ones.
func TestResultsFollow(t *testing.T) {
	e := newResultsEnv(t, "Pocket:*", "home:alice")
	names, err := e.im.FollowedProjects()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(names, " "); got != "Pocket:1.0 home:alice" {
		t.Errorf("followed %q, want Pocket:1.0 home:alice (Pocket:secret is hidden from the explorer)", got)
	}
	if !e.im.Follows("Pocket:1.0") || e.im.Follows("devel:tools") || e.im.Follows(secretProject) {
		t.Errorf("Follows disagrees with the list %v", names)
	}
	for _, c := range []resultsScenario{
		{name: "followed", path: "/api/projects/Pocket:1.0/_result?archs=x86_64", status: 200,
			contains: []string{`<status package="pocket-cli" code="succeeded"/>`}},
		{name: "followed, no packages", path: "/api/projects/home:alice/_result", status: 200,
			contains: []string{`<result project="home:alice" repository="standard" arch="x86_64" code="unpublished" state="unpublished">`},
			excludes: []string{"<status "}},
		{name: "not followed", path: "/api/projects/devel:tools/_result", status: 404,
			contains: []string{`{"error":"project 'devel:tools' not found"}`}},
		{name: "picked but restricted", path: "/api/projects/Pocket:secret/_result", status: 404,
			contains: []string{`{"error":"project 'Pocket:secret' not found"}`}},
	} {
		t.Run(c.name, func(t *testing.T) { e.check(t, c) })
	}
	// The project exists and has results for a member: the 404 is the read protection's.
	alice, err := e.build.ActivePerson("alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.build.Farm.Results(alice, secretProject, farm.ResultQuery{}); err != nil {
		t.Errorf("alice cannot read %s's results: %v", secretProject, err)
	}
}

// TestBackendConfigOneScheduler: a configuration with one scheduler still answers an array,
// and a change of the configuration shows at once (it is not cached).
func TestBackendConfigOneScheduler(t *testing.T) {
	e := newResultsEnv(t)
	admin, err := e.build.ActivePerson("Admin")
	if err != nil {
		t.Fatal(err)
	}
	ch := buildsvc.ConfigurationChange{Title: "one", Description: "d", SetSchedulers: true, Schedulers: []string{"riscv64"}}
	if err := e.build.ChangeConfiguration(admin, ch, nil); err != nil {
		t.Fatal(err)
	}
	got := e.get(t, "/api/backend-config")
	checkJSON(t, got)
	var m map[string]any
	if err := json.Unmarshal([]byte(got.Body), &m); err != nil {
		t.Fatal(err)
	}
	sch, _ := m["schedulers"].(map[string]any)
	archs, ok := sch["arch"].([]any)
	if !ok || len(archs) != 1 || archs[0] != "riscv64" {
		t.Errorf(`schedulers %v, want {"arch": ["riscv64"]}`, m["schedulers"])
	}
	if m["title"] != "one" || m["download_url"] != "http://forge.test/published" {
		t.Errorf("title %v, download_url %v", m["title"], m["download_url"])
	}
}
