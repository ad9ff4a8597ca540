package buildweb

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestPages reads every page of the area over the built demo world: status, what it must show
// and must not, and the 100 KB every page stays under (env.get).
func TestPages(t *testing.T) {
	e := newEnv(t)
	const tools = "/projects/devel:tools"
	const lint = tools + "/packages/pocket-lint"
	cases := []struct {
		path   string
		status int
		want   []string
		not    []string
	}{
		{"/projects", 200, []string{`id="projects"`, `href="/projects/devel:tools"`, `<img src="/badge/devel:tools.svg" alt="build state of devel:tools"`,
			`href="/projects/Pocket:1.0/monitor"`}, []string{secretProject}},
		{tools, 200, []string{`<h1 id="project-name">devel:tools</h1>`, `<img id="badge" src="/badge/devel:tools.svg"`,
			`<object id="table" type="image/svg+xml" data="/badge/devel:tools/_table.svg"`, `href="/projects/devel:tools/monitor">The result table`,
			`<td>standard</td><td>x86_64, aarch64</td>`, `href="/projects/devel:tools/packages/pocket-lint"`, `aria-current="page">Overview`}, nil},
		{"/projects/devel%3Atools", 200, []string{`<h1 id="project-name">devel:tools</h1>`}, nil},
		{tools + "/monitor", 200, []string{`id="matrix"`, `data-package="pocket-lint"`, `<span class="status s-failed">failed</span>`,
			`<td class="status s-failed" data-state="failed"><a href="http://forge.test/projects/devel:tools/packages/pocket-lint/logs/standard/x86_64" target="_blank"`,
			`<td class="status s-excluded" data-state="inactive">excluded</td>`, `<span class="status s-passing">passing</span>`,
			`<script src="/static/monitor.js" defer></script>`, `aria-current="page">Monitor`, `<label for="f-state">`}, nil},
		{tools + "/monitor?state=failed", 200, []string{`data-package="pocket-lint"`, `<option value="failed" selected>`},
			[]string{`data-package="forge-utils"`}},
		{tools + "/monitor?state=passing&package=forge-utils", 200, []string{`data-package="forge-utils"`}, []string{`data-package="pocket-lint"`, `data-package="forge-build"`}},
		{tools + "/monitor?arch=aarch64", 200, []string{`<th scope="col" data-repository="standard" data-arch="aarch64">standard<br><span class="muted">aarch64</span></th>`},
			[]string{`<span class="muted">x86_64</span>`}},
		{tools + "/monitor?state=building", 200, []string{`id="empty"`, "No package matches these filters"}, nil},
		{tools + "/monitor?state=purple", 400, []string{"unknown state &#39;purple&#39;"}, nil},
		{tools + "/monitor?page=0", 400, nil, nil},
		{tools + "/monitor?package=%3Cscript%3Ealert(1)%3C/script%3E", 200, []string{`value="&lt;script&gt;alert(1)&lt;/script&gt;"`}, []string{"<script>alert"}},
		{lint, 200, []string{`<h1 id="package-name">pocket-lint</h1>`, `Lint spec files for Pocket`, `id="files"`, `pocket-lint.spec</a></td><td>1750</td><td class="mono">bbbcbbf18def664199ea5212c59809ff`,
			`href="/projects/devel:tools/packages/pocket-lint/history"`, `href="/projects/devel:tools/packages/pocket-lint/revisions/3"`,
			`<svg id="chart"`, `fill="#e05d44"`, `standard/x86_64 · failed`, `data-state="failed"`, `/logs/standard/aarch64" target="_blank"`}, nil},
		{tools + "/packages/forge-utils", 200, []string{`fill="#44cc11"`, `<span class="status s-succeeded"`}, nil},
		{"/projects/Pocket:1.0/packages/pocket-cli", 200, []string{`id="link"`, `href="/projects/devel:tools/packages/pocket-cli"`}, nil},
		{lint + "/history", 200, []string{`id="revisions"`, "Update to 0.8.0", "Initial package of pocket-lint 0.7.0", `href="/projects/devel:tools/packages/pocket-lint/diff?rev=1"`}, nil},
		{lint + "/revisions/1", 200, []string{"revision 1", "Initial package of pocket-lint 0.7.0", `files/pocket-lint.spec?rev=1"`}, nil},
		{lint + "/revisions/99", 404, nil, nil},
		{lint + "/diff?rev=3", 200, []string{`id="text"`, "pocket-lint.spec", "0.8.0"}, nil},
		{lint + "/files/pocket-lint.spec", 200, []string{`<h1 id="text-heading">pocket-lint.spec`, "Name:", "1750 bytes"}, nil},
		{lint + "/files/pocket-lint.spec?rev=1", 200, []string{"at revision 1", "0.7.0"}, nil},
		{lint + "/files/nope.spec", 404, nil, nil},
		{lint + "/logs/standard/x86_64", 200, []string{`<h1>Build log: pocket-lint</h1>`, `id="log"`, `data-running="false"`, "Bad exit status", `<span class="status s-failed" id="log-code">failed</span>`,
			`<script src="/static/logtail.js" defer></script>`, `href="?raw=1"`}, nil},
		{lint + "/logs/standard/s390x", 404, nil, nil},
		{tools + "/packages/nope", 404, nil, nil},
		{tools + "/packages/nope/logs/standard/x86_64", 404, nil, nil},
		{"/projects/nope", 404, []string{"Page not found"}, nil},
		{"/projects/nope/monitor", 404, nil, nil},
		{"/projects/%3Cscript%3Ealert(1)%3C%2Fscript%3E", 404, nil, []string{"<script>alert"}},
		{tools + "/packages/%3Cscript%3E/files/%3Cb%3E", 404, nil, []string{"<script>", "<b>"}},
		{"/change-requests", 200, []string{`id="requests"`, `href="/change-requests/3"`, "review", `<a href="/change-requests" aria-current="page">Requests</a>`}, nil},
		{"/change-requests?state=accepted,declined,revoked,superseded,new,review", 200, []string{`href="/change-requests/1"`}, nil},
		{"/change-requests?state=%3Cscript%3E", 400, []string{"&lt;script&gt;"}, []string{"<script>"}},
		{"/change-requests/3", 200, []string{"<h1>Request #3</h1>", `id="actions"`, `href="/projects/devel:tools/packages/forge-utils"`, `id="reviews"`, `id="history"`,
			`<nav class="muted crumbs" aria-label="Breadcrumb"><a href="/change-requests">Requests</a> / <span aria-current="page">#3</span></nav>`}, []string{` /</p>`}},
		{"/projects/devel:tools/monitor", 200, []string{`<a href="/projects">Build results</a> / <a href="/projects/devel:tools">devel:tools</a> / <span aria-current="page">monitor</span></nav>`,
			`<a href="/projects" aria-current="page">Builds</a>`}, []string{` /</p>`}},
		{"/change-requests/999999", 404, nil, nil},
		{"/change-requests/abc", 404, nil, nil},
	}
	for _, c := range cases {
		r := e.get(t, c.path, c.status)
		has(t, c.path, r.Body, c.want, c.not...)
		if c.status == 200 && r.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("GET %s: Cache-Control %q", c.path, r.Header.Get("Cache-Control"))
		}
	}
}

// TestRestrictedProject: a project hidden by <access><disable/> is a 404 page on every route,
// as the build API answers an outsider, and the project list leaves it out.
func TestRestrictedProject(t *testing.T) {
	e := newEnv(t)
	p := "/projects/" + secretProject
	for _, path := range []string{p, p + "/monitor", p + "/monitor/table", p + "/packages/x", p + "/packages/x/history",
		p + "/packages/x/files/a.spec", p + "/packages/x/diff", p + "/packages/x/revisions/1", p + "/packages/x/logs/standard/x86_64",
		"/projects/Pocket%3Asecret"} {
		r := e.get(t, path, http.StatusNotFound)
		has(t, path, r.Body, []string{"Page not found"}, "hidden")
	}
	if r := e.get(t, "/projects", 200); strings.Contains(r.Body, secretProject) {
		t.Error("the project list shows the hidden project")
	}
}

// TestMonitorTable: the fragment monitor.js polls is the matrix alone, and 204 while the
// version it was given is the cache's.
func TestMonitorTable(t *testing.T) {
	e := newEnv(t)
	r := e.get(t, "/projects/devel:tools/monitor/table?state=failed", 200)
	has(t, "table", r.Body, []string{`<div id="monitor"`, `data-package="pocket-lint"`}, "<html", `data-package="forge-utils"`)
	i := strings.Index(r.Body, `data-version="`)
	if i < 0 {
		t.Fatal("no data-version")
	}
	v := r.Body[i+len(`data-version="`):]
	v = v[:strings.IndexByte(v, '"')]
	if v == "" || v == "0" {
		t.Fatalf("version %q", v)
	}
	e.get(t, "/projects/devel:tools/monitor/table?state=failed&v="+v, http.StatusNoContent)
	e.get(t, "/projects/devel:tools/monitor/table?v=1"+v, 200)
}

// TestRawLog: ?raw=1 is the log as text, ?offset= continues from a byte with the headers
// logtail.js reads.
func TestRawLog(t *testing.T) {
	e := newEnv(t)
	path := "/projects/devel:tools/packages/pocket-lint/logs/standard/x86_64"
	whole := e.get(t, path+"?raw=1", 200)
	if !strings.HasPrefix(whole.Header.Get("Content-Type"), "text/plain") || !strings.Contains(whole.Body, "Bad exit status") {
		t.Fatalf("raw log: %s %q", whole.Header.Get("Content-Type"), whole.Body)
	}
	r := e.get(t, path+"?raw=1&offset=100", 200)
	if r.Body != whole.Body[100:] || r.Header.Get("X-Log-Size") != whole.Header.Get("X-Log-Size") || r.Header.Get("X-Log-Running") != "0" {
		t.Errorf("offset 100: size %s running %s, %d bytes", r.Header.Get("X-Log-Size"), r.Header.Get("X-Log-Running"), len(r.Body))
	}
	e.get(t, path+"?raw=1&offset=-1", 400)
	e.get(t, path+"?raw=1&offset=99999999", 400)
}

// TestRunningLog: a build under way shows the log so far, marked running for logtail.js, and
// its tail answers X-Log-Running: 1.
func TestRunningLog(t *testing.T) {
	e := newEnv(t)
	admin := anonymous
	admin.Login, admin.GlobalRoles = "Admin", []string{"Admin"}
	if err := e.build.Farm.ControlPackageBuilds(admin, "devel:tools", "forge-utils", "rebuild", []string{"standard"}, []string{"x86_64"}); err != nil {
		t.Fatal(err)
	}
	path := "/projects/devel:tools/packages/forge-utils/logs/standard/x86_64"
	for i := 0; i < 20; i++ {
		if err := e.build.Farm.FarmTick(); err != nil {
			t.Fatal(err)
		}
		r := apitest.Do(t, e.app, apitest.Request{Path: path + "?raw=1&offset=0"})
		if r.Status == 200 && r.Header.Get("X-Log-Running") == "1" {
			page := e.get(t, path, 200)
			has(t, path, page.Body, []string{`data-running="true"`, `id="log-running"`, `<span class="status s-building" id="log-code">building</span>`,
				`<span class="muted" id="log-size">`})
			if code := r.Header.Get("X-Log-Code"); code != "building" {
				t.Errorf("X-Log-Code %q while the build runs", code)
			}
			return
		}
		e.clk.Advance(demoBuildTime / 4)
	}
	t.Fatal("the rebuild never ran")
}

// TestStaticScripts: the two scripts are served, and no page has an inline handler.
func TestStaticScripts(t *testing.T) {
	e := newEnv(t)
	for _, s := range []string{"/static/monitor.js", "/static/logtail.js"} {
		r := e.get(t, s, 200)
		if !strings.Contains(r.Header.Get("Content-Type"), "javascript") {
			t.Errorf("%s: %s", s, r.Header.Get("Content-Type"))
		}
	}
	for _, p := range []string{"/projects/devel:tools/monitor", "/projects/devel:tools/packages/pocket-lint/logs/standard/x86_64"} {
		if r := e.get(t, p, 200); strings.Contains(r.Body, "onclick=") || strings.Contains(r.Body, "<script>") {
			t.Errorf("%s has inline script", p)
		}
	}
}
