package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

var (
	asAdmin = basic("Admin", adminPassword)
	asAlice = basic("alice", "alice-password")
	asBob   = basic("bob", "bob-password")
)

func req(method, path string, h map[string]string, body string) apitest.Request {
	return apitest.Request{Method: method, Path: path, Header: h, Body: body}
}

func code(status int, c string, summary ...string) apitest.Expect {
	return apitest.Expect{Status: status, Contains: append([]string{`<status code="` + c + `">`}, summary...),
		Header: map[string]string{"X-Opensuse-Errorcode": c}}
}

var ok = apitest.Expect{Status: 200, Contains: []string{`<status code="ok">`, "<summary>Ok</summary>"}}

func TestSourceListsAndMetas(t *testing.T) {
	e := newEnv(t)
	e.run(t, []scenario{
		{"no credentials", req("GET", "/source", nil, ""), apitest.Expect{Status: 401}},
		{"projects", req("GET", "/source", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<directory count="7">`,
			`<entry name="Pocket:1.0"></entry>`, `<entry name="devel:libs"></entry>`, `<entry name="devel:tools"></entry>`, `<entry name="home:alice"></entry>`,
			`<entry name="home:alice:branches:devel:tools"></entry>`, `<entry name="home:bob"></entry>`, `<entry name="home:bob:forks"></entry>`}}},
		{"projects, trailing slash (osc ls /)", req("GET", "/source/", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<directory count="7">`}}},
		{"deleted projects: none kept", req("GET", "/source?deleted=1", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<directory count="0">`}}},
		{"packages", req("GET", "/source/devel:tools?expand=0&unknown=1", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<directory count="5">`,
			`<entry name="forge-build"></entry>`, `<entry name="forge-changelog"></entry>`, `<entry name="forge-utils"></entry>`,
			`<entry name="pocket-cli"></entry>`, `<entry name="pocket-lint"></entry>`}}},
		{"packages, encoded colon", req("GET", "/source/devel%3Alibs", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<entry name="libpocket">`}}},
		{"unknown project", req("GET", "/source/nope", asBob, ""), code(404, "unknown_project", "<summary>Project not found: nope</summary>")},
		{"project meta", req("GET", "/source/devel:tools/_meta", asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			`<project name="devel:tools">`, "<title>Development tools</title>", `<person userid="alice" role="maintainer"></person>`,
			`<repository name="standard">`, `<path project="Pocket:1.0" repository="standard"></path>`, "<arch>x86_64</arch>"}}},
		{"meta of an unknown project", req("GET", "/source/nope/_meta", asBob, ""), code(404, "unknown_project")},
		{"package meta", req("GET", "/source/devel:tools/pocket-cli/_meta", asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			`<package name="pocket-cli" project="devel:tools">`, "<title>The pocket command line</title>"}}},
		{"unknown package", req("GET", "/source/devel:tools/nope/_meta", asBob, ""), code(404, "unknown_package", "<summary>Package not found: devel:tools/nope</summary>")},
		{"package in an unknown project", req("GET", "/source/nope/x/_meta", asBob, ""), code(404, "unknown_project")},
		{"package files: the demo history", req("GET", "/source/devel:libs/libpocket?rev=latest", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<directory name="libpocket" rev="3" vrev="1" srcmd5="`, `<entry name="libpocket.spec" md5="`}}},
		{"files of an unknown package", req("GET", "/source/devel:libs/nope", asBob, ""), code(404, "unknown_package")},
	})
}

const aliceTest = `<project name="home:alice:test">
<description>scratch</description>      <title>Test</title>
  <repository name="alpha"><arch>x86_64</arch></repository>
  <build><disable arch="aarch64"/></build>
  <repository name="zeta"><path project="Pocket:1.0" repository="standard"/><arch>aarch64</arch></repository>
</project>`

// canonical is aliceTest as the service re-renders it: title first, the creator added as
// maintainer, flags before repositories, repositories by name descending.
const canonical = `<project name="home:alice:test">
  <title>Test</title>
  <description>scratch</description>
  <person userid="alice" role="maintainer"></person>
  <build>
    <disable arch="aarch64"></disable>
  </build>
  <repository name="zeta">
    <path project="Pocket:1.0" repository="standard"></path>
    <arch>aarch64</arch>
  </repository>
  <repository name="alpha">
    <arch>x86_64</arch>
  </repository>
</project>
`

func prj(name, inner string) string {
	return `<project name="` + name + `"><title>T</title><description/>` + inner + `</project>`
}

func TestProjectMetaWrites(t *testing.T) {
	e := newEnv(t)
	put := func(name, body string, h map[string]string) apitest.Request {
		return req("PUT", "/source/"+name+"/_meta", h, body)
	}
	e.run(t, []scenario{
		{"no credentials", put("home:alice:test", aliceTest, nil), apitest.Expect{Status: 401}},
		{"alice creates below her home", put("home:alice:test", aliceTest, asAlice), ok},
		{"canonical re-render", req("GET", "/source/home:alice:test/_meta", asBob, ""), apitest.Expect{Status: 200, Exact: canonical}},
		{"listed", req("GET", "/source/", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<directory count="8">`, `<entry name="home:alice:test">`}}},
		{"bob may not change it", put("home:alice:test", aliceTest, asBob), code(403, "change_project_no_permission")},
		{"alice may not create top-level", put("mine", prj("mine", ""), asAlice), code(403, "create_project_no_permission", "only an administrator creates top-level projects")},
		{"alice may not create in bob's home", put("home:bob:x", prj("home:bob:x", ""), asAlice), code(403, "create_project_no_permission")},
		{"alice creates below a project she maintains", put("devel:tools:python", prj("devel:tools:python", ""), asAlice), ok},
		{"Admin creates top-level", put("Pocket:2.0", prj("Pocket:2.0", `<person userid="bob" role="bugowner"/><group groupid="pocket-reviewers" role="reviewer"/>`), asAdmin), ok},
		{"Admin became maintainer", req("GET", "/source/Pocket:2.0/_meta", asAdmin, ""), apitest.Expect{Status: 200, Contains: []string{
			`<person userid="bob" role="bugowner"></person>`, `<person userid="Admin" role="maintainer"></person>`, `<group groupid="pocket-reviewers" role="reviewer"></group>`}}},
		{"name mismatch", put("home:alice:a", prj("home:alice:b", ""), asAlice), code(400, "project_name_mismatch", "('home:alice:b')")},
		{"bad name", put("home:alice:..x", prj("home:alice:..x", ""), asAlice), code(400, "invalid_project_name")},
		{"bad name: trailing colon", put("home:alice:", prj("home:alice:", ""), asAlice), code(400, "invalid_project_name")},
		{"not XML", put("home:alice:a", "<project name=", asAlice), code(400, "validation_failed", "project validation error")},
		{"empty body", put("home:alice:a", "", asAlice), code(400, "validation_failed")},
		{"wrong root", put("home:alice:a", `<package name="home:alice:a"/>`, asAlice), code(400, "validation_failed")},
		{"no title", put("home:alice:a", `<project name="home:alice:a"><description/></project>`, asAlice), code(400, "validation_failed", "&lt;title&gt;")},
		{"unknown role", put("home:alice:a", prj("home:alice:a", `<person userid="bob" role="boss"/>`), asAlice), code(400, "validation_failed", "unknown role 'boss'")},
		{"unknown person", put("home:alice:a", prj("home:alice:a", `<person userid="mallory" role="reader"/>`), asAlice), code(400, "validation_failed", "mallory")},
		{"unknown group", put("home:alice:a", prj("home:alice:a", `<group groupid="nope" role="reader"/>`), asAlice), code(400, "validation_failed", "nope")},
		{"unknown path project", put("home:alice:a", prj("home:alice:a", `<repository name="r"><path project="Nope" repository="standard"/></repository>`), asAlice),
			code(400, "validation_failed", "unable to walk on path 'Nope/standard'")},
		{"unknown path repository", put("home:alice:a", prj("home:alice:a", `<repository name="r"><path project="Pocket:1.0" repository="ports"/></repository>`), asAlice),
			code(400, "validation_failed", "Pocket:1.0/ports")},
		{"path within the document", put("home:alice:a", prj("home:alice:a", `<repository name="r"><path project="home:alice:a" repository="s"/></repository><repository name="s"/>`), asAlice), ok},
		{"unknown architecture", put("home:alice:b", prj("home:alice:b", `<repository name="r"><arch>z80</arch></repository>`), asAlice), code(400, "validation_failed", "z80")},
		{"bad flag", put("home:alice:b", prj("home:alice:b", `<build><maybe/></build>`), asAlice), code(400, "validation_failed")},
	})
}

func TestProjectDelete(t *testing.T) {
	e := newEnv(t)
	e.run(t, []scenario{
		{"no credentials", req("DELETE", "/source/devel:tools", nil, ""), apitest.Expect{Status: 401}},
		{"bob is no maintainer", req("DELETE", "/source/devel:tools", asBob, ""), code(403, "delete_project_no_permission")},
		{"unknown", req("DELETE", "/source/nope", asAdmin, ""), code(404, "unknown_project")},
		{"others build against it", req("DELETE", "/source/Pocket:1.0", asAdmin, ""), code(400, "repo_dependency", "devel:libs/standard")},
		{"her branch builds against devel:tools", req("DELETE", "/source/devel:tools", asAlice, ""),
			code(400, "repo_dependency", "home:alice:branches:devel:tools/standard")},
		{"alice deletes devel:tools and its packages", req("DELETE", "/source/devel:tools?comment=bye&force=1", asAlice, ""), ok},
		{"gone", req("GET", "/source/devel:tools/_meta", asAlice, ""), code(404, "unknown_project")},
		{"its packages gone", req("GET", "/source/devel:tools/pocket-cli/_meta", asAlice, ""), code(404, "unknown_project")},
		{"forced", req("DELETE", "/source/Pocket:1.0?force=1", asAdmin, ""), ok},
		{"paths repointed", req("GET", "/source/devel:libs/_meta", asAdmin, ""), apitest.Expect{Status: 200, Contains: []string{`<path project="deleted" repository="standard">`}}},
	})
}

func TestPackageWrites(t *testing.T) {
	e := newEnv(t)
	put := func(path, body string, h map[string]string) apitest.Request {
		return req("PUT", "/source/"+path+"/_meta", h, body)
	}
	pkg := func(attrs, inner string) string {
		return `<package ` + attrs + `><title>Hello</title><description>d</description>` + inner + `</package>`
	}
	e.run(t, []scenario{
		{"no credentials", put("home:alice/hello", pkg(`name="hello"`, ""), nil), apitest.Expect{Status: 401}},
		{"alice creates in her home", put("home:alice/hello", pkg(`name="hello"`, `<person userid="bob" role="maintainer"/><build><enable/></build>`), asAlice), ok},
		{"project attribute filled in", req("GET", "/source/home:alice/hello/_meta", asAlice, ""), apitest.Expect{Status: 200, Exact: `<package name="hello" project="home:alice">
  <title>Hello</title>
  <description>d</description>
  <person userid="bob" role="maintainer"></person>
  <build>
    <enable></enable>
  </build>
</package>
`}},
		{"listed", req("GET", "/source/home:alice", asAlice, ""), apitest.Expect{Status: 200, Contains: []string{`<directory count="1">`, `<entry name="hello">`}}},
		{"bob maintains the package", put("home:alice/hello", pkg("", ""), asBob), ok},
		{"bob may not create in alice's home", put("home:alice/other", pkg("", ""), asBob), code(403, "modify_package_no_permission")},
		{"carol may not change devel:tools", put("devel:tools/pocket-cli", pkg("", ""), basic("carol", "carol-password")), code(403, "modify_package_no_permission")},
		{"package name mismatch", put("home:alice/a", pkg(`name="b"`, ""), asAlice), code(400, "package_name_mismatch")},
		{"project name mismatch", put("home:alice/a", pkg(`project="home:bob"`, ""), asAlice), code(400, "project_name_mismatch")},
		{"bad name", put("home:alice/.x", pkg("", ""), asAlice), code(400, "invalid_package_name")},
		{"_product is a name", put("home:alice/_product", pkg("", ""), asAlice), ok},
		{"unknown project", put("nope/a", pkg("", ""), asAdmin), code(404, "unknown_project")},
		{"invalid XML", put("home:alice/a", "<package", asAlice), code(400, "validation_failed", "package validation error")},
		{"unknown role", put("home:alice/a", pkg("", `<person userid="bob" role="boss"/>`), asAlice), code(400, "validation_failed")},
		{"unknown person", put("home:alice/a", pkg("", `<person userid="mallory" role="maintainer"/>`), asAlice), code(400, "validation_failed", "mallory")},
		{"delete: no credentials", req("DELETE", "/source/home:alice/hello", nil, ""), apitest.Expect{Status: 401}},
		{"delete: carol may not", req("DELETE", "/source/home:alice/hello", basic("carol", "carol-password"), ""), code(403, "delete_package_no_permission")},
		{"delete: unknown", req("DELETE", "/source/home:alice/nope", asAlice, ""), code(404, "unknown_package")},
		{"delete", req("DELETE", "/source/home:alice/hello", asAlice, ""), ok},
		{"deleted", req("GET", "/source/home:alice/hello", asAlice, ""), code(404, "unknown_package")},
	})
}
