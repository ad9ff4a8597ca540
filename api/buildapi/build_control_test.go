package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestBuildControl: the build commands of a project and of a package, their permissions and
// their filters; and the legacy /result documents.
func TestBuildControl(t *testing.T) {
	f := newFarmEnv(t)
	f.buildAll(t)
	p := "/build/home:alice:farm"
	r := p + "/_result?arch=x86_64"
	f.run(t, []scenario{
		{"rebuild by bob", req("POST", p+"?cmd=rebuild", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"an unknown command", req("POST", p+"?cmd=frobnicate", asAlice, ""), code(400, "illegal_request", "unsupported POST command frobnicate")},
		{"no command", req("POST", p, asAlice, ""), code(400, "missing_parameter")},
		{"unknown project", req("POST", "/build/nope?cmd=rebuild", asAlice, ""), code(404, "unknown_project")},
		{"a filter matching nothing", req("POST", p+"?cmd=rebuild&package=nope&repository=nope", asAlice, ""), ok},
		{"rebuild one", req("POST", p+"?cmd=rebuild&package=hello&arch=x86_64&repository=standard", asAlice, ""), ok},
	})
	f.tick(t)
	f.run(t, []scenario{
		{"it builds", req("GET", r+"&package=hello", asBob, ""), want(200, `<status package="hello" code="building"`)},
		{"abortbuild", req("POST", p+"?cmd=abortbuild&code=building", asAlice, ""), ok},
		{"aborted", req("GET", r+"&package=hello", asBob, ""), want(200, `<status package="hello" code="failed"`, `<details>aborted</details>`)},
		{"wipe by code", req("POST", p+"?cmd=wipe&code=succeeded&arch=aarch64", asAlice, ""), ok},
		{"package rebuild by bob", req("POST", "/source/home:alice:farm/hello?cmd=rebuild", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"package rebuild of nothing", req("POST", "/source/home:alice:farm/nope?cmd=rebuild", asAlice, ""), code(404, "unknown_package")},
		{"package rebuild", req("POST", "/source/home:alice:farm/hello?cmd=rebuild&repository=standard&arch=x86_64", asAlice, ""), ok},
		{"package wipe", req("POST", "/source/home:alice:farm/bad?cmd=wipe", asAlice, ""), ok},
		{"unpublish", req("POST", p+"?cmd=unpublish", asAlice, ""), ok},
	})
	f.tick(t)
	f.run(t, []scenario{
		{"rebuilt", req("GET", r+"&package=hello", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<status package="hello" code="`}, Excludes: []string{`code="succeeded"`, `code="failed"`}}},
		{"its reason", req("GET", p+"/standard/x86_64/hello/_reason", asBob, ""), want(200, `<explain>source change</explain>`)},
	})
	f.buildAll(t)
	f.run(t, []scenario{
		{"project result", req("GET", "/result/home:alice:farm/standard/result", asBob, ""), want(200, `<projectresult project="home:alice:farm">`,
			`<date>`, `<status code="failed">`, `<packagecount state="succeeded">3</packagecount>`, `<packagecount state="failed">2</packagecount>`,
			`<repositoryresult name="standard">`, `<archresult arch="x86_64">`, `<archresult arch="aarch64">`)},
		{"package result", req("GET", "/result/home:alice:farm/standard/hello/result", asBob, ""), want(200,
			`<packageresult package="hello" project="home:alice:farm" repository="standard">`, `<status code="succeeded">`,
			`<archresult arch="x86_64">`, `<rpm filename="hello-1.0-1.2.x86_64.rpm">`, `<rpm filename="hello-1.0-1.2.aarch64.rpm">`, `<rpm filename="hello-1.0-1.2.src.rpm">`)},
		{"legacy unknown platform", req("GET", "/result/home:alice:farm/nope/result", asBob, ""), code(404, "unknown_repository")},
		{"legacy unknown package", req("GET", "/result/home:alice:farm/standard/nope/result", asBob, ""), code(404, "unknown_package")},
		{"legacy unknown project", req("GET", "/result/nope/standard/result", asBob, ""), code(404, "unknown_project")},
		{"legacy log of an unknown arch", req("GET", "/result/home:alice:farm/standard/hello/s390x/log", asBob, ""), code(404, "unknown_architecture")},
	})
}
