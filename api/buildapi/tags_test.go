package buildapi

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestTagsRead: every read route on the demo world's tags (alice's and bob's, see
// fixtures/build_tags.go), whole documents.
func TestTagsRead(t *testing.T) {
	e := newEnv(t)
	g := func(name, path string) goldenScenario {
		return goldenScenario{name: name, Request: req("GET", path, asBob, ""), golden: name}
	}
	e.runGolden(t, "tags", []goldenScenario{
		g("project_tags", "/source/devel:tools/_tags"),
		g("package_tags", "/source/devel:tools/pocket-cli/_tags"),
		g("untagged_package", "/source/devel:tools/forge-utils/_tags"),
		g("tag_projects", "/tag/pocket/_projects"),
		g("tag_packages", "/tag/pocket/_packages"),
		g("tag_all", "/tag/pocket/_all"),
		g("tag_intersection", "/tag/pocket::cli/_all"),
		g("tag_intersection_packages", "/tag/library::forge/_packages"),
		g("tag_intersection_empty", "/tag/base::cli/_all"),
		g("tag_only_on_packages", "/tag/cli/_projects"),
		g("user_projects", "/user/alice/tags/_projects"),
		g("user_packages", "/user/bob/tags/_packages"),
		g("user_project_tags", "/user/alice/tags/devel:tools"),
		g("user_package_tags", "/user/bob/tags/devel:tools/pocket-cli"),
		g("user_no_tags_there", "/user/carol/tags/devel:tools/pocket-cli"),
		g("tagcloud", "/tag/_tagcloud"),
		g("tagcloud_linear", "/tag/_tagcloud?distribution=linear"),
		g("tagcloud_raw", "/tag/_tagcloud?distribution=raw"),
		g("tagcloud_steps_10", "/tag/_tagcloud?steps=10&limit=0"),
		g("tagcloud_limit_3", "/tag/_tagcloud?distribution=linear&limit=3"),
		g("user_tagcloud", "/user/alice/tags/_tagcloud?distribution=raw"),
		g("user_tagcloud_linear", "/user/bob/tags/_tagcloud?distribution=linear&steps=4"),
		g("carol_tagcloud", "/user/carol/tags/_tagcloud"),
	})
}

// TestTagsWrite: a user replaces his own tags on a project or package (nobody else's, not even
// Admin), the other users' stay, refused names change nothing, and …/_tags takes no writes —
// a PUT there never becomes a source file.
func TestTagsWrite(t *testing.T) {
	e := newEnv(t)
	asAdmin := basic("Admin", adminPassword)
	const pkg, prj = "/user/alice/tags/devel:tools/pocket-cli", "/user/alice/tags/devel:tools"
	body := `<tags><tag name="cli"/><tag name="terminal"/><tag name="cli"/></tags>`
	e.runGolden(t, "tags", []goldenScenario{
		{name: "alice replaces hers", Request: req("PUT", pkg, asAlice, body), Expect: ok},
		{name: "her tags now", Request: req("GET", pkg, asBob, ""), golden: "put_user_package_tags"},
		{name: "bob's untouched", Request: req("GET", "/user/bob/tags/devel:tools/pocket-cli", asBob, ""), golden: "user_package_tags"},
		{name: "everyone's", Request: req("GET", "/source/devel:tools/pocket-cli/_tags", asBob, ""), golden: "put_package_tags"},
		{name: "the new tag is found", Request: req("GET", "/tag/terminal/_packages", asBob, ""), golden: "put_tag_packages"},
		{name: "the dropped one is gone from there", Request: req("GET", "/tag/devtools/_packages", asBob, ""), golden: "put_devtools_packages"},
		{name: "on a project", Request: req("PUT", prj, asAlice, `<tags><tag name="Tools"/><tag name="devtools"/></tags>`), Expect: ok},
		{name: "the project's", Request: req("GET", "/source/devel:tools/_tags", asAlice, ""), golden: "put_project_tags"},
		{name: "an empty list drops them all", Request: req("PUT", prj, asAlice, `<tags/>`), Expect: ok},
		{name: "none left", Request: req("GET", prj, asAlice, ""), Expect: apitest.Expect{Status: 200,
			Exact: `<tags project="devel:tools" title="Development tools" user="alice"></tags>` + "\n"}},
		{name: "bob may not write alice's", Request: req("PUT", pkg, asBob, body),
			Expect: code(403, "permission_denied", "Editing tags for another user than the logged on user is not allowed.")},
		{name: "nor may Admin", Request: req("PUT", pkg, asAdmin, body), Expect: code(403, "permission_denied")},
		{name: "refused names", Request: req("PUT", pkg, asAlice, `<tags><tag name="ok"/><tag name="why?"/><tag name="a:b"/><tag/></tags>`),
			Expect: code(400, "tagcreation_error", `[TAG:] There are rejected Tags: ["why?", "a:b", ""]`)},
		{name: "changed nothing", Request: req("GET", pkg, asBob, ""), golden: "put_user_package_tags"},
		{name: "not XML", Request: req("PUT", pkg, asAlice, "cli, terminal"), Expect: code(400, "invalid_xml")},
		{name: "another document", Request: req("PUT", pkg, asAlice, `<taglist><tag name="x"/></taglist>`), Expect: code(400, "invalid_xml")},
		{name: "unknown user", Request: req("PUT", "/user/nobody/tags/devel:tools", asAlice, body), Expect: code(404, "not_found")},
		{name: "unknown project", Request: req("PUT", "/user/alice/tags/nope", asAlice, body), Expect: code(404, "unknown_project")},
		{name: "unknown package", Request: req("PUT", "/user/alice/tags/devel:tools/nope", asAlice, body), Expect: code(404, "unknown_package")},

		{name: "PUT …/_tags is no file", Request: req("PUT", "/source/devel:tools/pocket-cli/_tags", asAlice, body),
			Expect: apitest.Expect{Status: 405, Contains: []string{`<status code="method_not_allowed">`, "is read-only"}, Header: map[string]string{"Allow": "GET"}}},
		{name: "the package holds no _tags", Request: req("GET", "/source/devel:tools/pocket-cli", asAlice, ""),
			Expect: apitest.Expect{Status: 200, Excludes: []string{`name="_tags"`}}},
		{name: "nor is there such a file", Request: req("GET", "/source/devel:tools/pocket-cli/_tags", asAlice, ""), golden: "put_package_tags"},
		{name: "DELETE …/_tags", Request: req("DELETE", "/source/devel:tools/pocket-cli/_tags", asAlice, ""), Expect: code(405, "method_not_allowed")},
		{name: "POST …/_tags", Request: req("POST", "/source/devel:tools/pocket-cli/_tags", asAlice, ""), Expect: code(405, "method_not_allowed")},
		{name: "PUT a project's _tags", Request: req("PUT", "/source/devel:tools/_tags", asAlice, body), Expect: code(405, "method_not_allowed")},
		{name: "DELETE a project's _tags", Request: req("DELETE", "/source/devel:tools/_tags", asAlice, ""), Expect: code(405, "method_not_allowed")},
		{name: "the project is still there", Request: req("GET", "/source/devel:tools/_meta", asAlice, ""), Expect: want(200, `<project name="devel:tools">`)},
	})
}

// TestTagsBadInput: unknown users, projects, packages and tags, bad cloud parameters, no
// credentials.
func TestTagsBadInput(t *testing.T) {
	e := newEnv(t)
	steps := "Invalid value for parameter steps.  (must be 1..100)"
	e.run(t, []scenario{
		{"no credentials", req("GET", "/tag/_tagcloud", nil, ""), apitest.Expect{Status: 401}},
		{"no credentials, user tags", req("GET", "/user/alice/tags/_projects", nil, ""), apitest.Expect{Status: 401}},
		{"unknown project", req("GET", "/source/nope/_tags", asBob, ""), code(404, "unknown_project", "Project not found: nope")},
		{"unknown package", req("GET", "/source/devel:tools/nope/_tags", asBob, ""), code(404, "unknown_package", "Package not found: devel:tools/nope")},
		{"unknown tag", req("GET", "/tag/nope/_projects", asBob, ""), code(404, "tag_not_found", "Tag nope not found")},
		{"unknown second tag", req("GET", "/tag/pocket::nope/_all", asBob, ""), code(404, "tag_not_found", "Tag nope not found")},
		{"unknown tag, packages", req("GET", "/tag/nope/_packages", asBob, ""), code(404, "tag_not_found")},
		{"an empty part", req("GET", "/tag/pocket::/_all", asBob, ""), code(404, "tag_not_found")},
		{"unknown user's projects", req("GET", "/user/nobody/tags/_projects", asBob, ""), code(404, "not_found", "Couldn't find User with login = nobody")},
		{"unknown user's packages", req("GET", "/user/nobody/tags/_packages", asBob, ""), code(404, "not_found")},
		{"unknown user's cloud", req("GET", "/user/nobody/tags/_tagcloud", asBob, ""), code(404, "not_found")},
		{"unknown user on a project", req("GET", "/user/nobody/tags/devel:tools", asBob, ""), code(404, "not_found")},
		{"user, unknown project", req("GET", "/user/alice/tags/nope", asBob, ""), code(404, "unknown_project")},
		{"user, unknown package", req("GET", "/user/alice/tags/devel:tools/nope", asBob, ""), code(404, "unknown_package")},
		{"steps 0", req("GET", "/tag/_tagcloud?steps=0", asBob, ""), code(400, "invalid_value", steps)},
		{"steps 101", req("GET", "/tag/_tagcloud?steps=101", asBob, ""), code(400, "invalid_value", steps)},
		{"steps not a number", req("GET", "/user/alice/tags/_tagcloud?steps=six", asBob, ""), code(400, "invalid_value", steps)},
		{"steps 1 and 100 are fine", req("GET", "/tag/_tagcloud?steps=1", asBob, ""), want(200, `steps="1"`)},
		{"steps 100", req("GET", "/tag/_tagcloud?steps=100", asBob, ""), want(200, `steps="100"`)},
		{"unknown distribution", req("GET", "/tag/_tagcloud?distribution=cubic", asBob, ""),
			code(400, "invalid_value", "Invalid value for parameter distribution.  (distribution=cubic)")},
		{"limit not an integer", req("GET", "/tag/_tagcloud?limit=ten", asBob, ""), code(400, "invalid_value", "parameter limit")},
		{"limit a fraction", req("GET", "/tag/_tagcloud?limit=1.5", asBob, ""), code(400, "invalid_value")},
		{"limit negative", req("GET", "/user/bob/tags/_tagcloud?limit=-1", asBob, ""), code(400, "invalid_value")},
	})
}

// TestTagsHidden: the taggings on a project with <access><disable/> and its packages do not
// exist for non-members — not listed, not counted, the project 404 — while members and Admin
// see them; deleting a package or the project drops its taggings.
func TestTagsHidden(t *testing.T) {
	e := newEnv(t)
	asCarol := basic("carol", "carol-password")
	asAdmin := basic("Admin", adminPassword)
	secret := `<project name="home:alice:secret"><title>S</title><description/>` +
		`<person userid="alice" role="maintainer"/><person userid="carol" role="reader"/><access><disable/></access></project>`
	const prj, pkg = "/user/alice/tags/home:alice:secret", "/user/alice/tags/home:alice:secret/p"
	e.run(t, []scenario{
		{"a hidden project", req("PUT", "/source/home:alice:secret/_meta", asAlice, secret), ok},
		{"a package in it", req("PUT", "/source/home:alice:secret/p/_meta", asAlice, `<package name="p"><title>P</title><description/></package>`), ok},
		{"alice tags the project", req("PUT", prj, asAlice, `<tags><tag name="hidden"/><tag name="pocket"/></tags>`), ok},
		{"and the package", req("PUT", pkg, asAlice, `<tags><tag name="secret"/><tag name="pocket"/></tags>`), ok},

		{"bob: the project's tags are a 404", req("GET", "/source/home:alice:secret/_tags", asBob, ""), code(404, "unknown_project")},
		{"bob: the package's", req("GET", "/source/home:alice:secret/p/_tags", asBob, ""), code(404, "unknown_project")},
		{"bob: alice's on it", req("GET", pkg, asBob, ""), code(404, "unknown_project")},
		{"bob may not tag it", req("PUT", "/user/bob/tags/home:alice:secret", asBob, `<tags><tag name="x"/></tags>`), code(404, "unknown_project")},
		{"bob: a tag only it carries is unknown", req("GET", "/tag/secret/_all", asBob, ""), code(404, "tag_not_found")},
		{"bob: not listed by tag", req("GET", "/tag/pocket/_all", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"home:alice:secret"}}},
		{"bob: not among alice's", req("GET", "/user/alice/tags/_packages", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"home:alice:secret"}}},
		{"bob: not counted", req("GET", "/tag/_tagcloud?distribution=raw", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<tag name="pocket" count="5">`}, Excludes: []string{`"secret"`, `"hidden"`}}},
		{"bob: nor in alice's cloud", req("GET", "/user/alice/tags/_tagcloud?distribution=raw", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<tag name="pocket" count="2">`}, Excludes: []string{`"secret"`}}},

		{"carol (a reader) sees them", req("GET", "/tag/secret/_all", asCarol, ""), want(200,
			`<package project="home:alice:secret" name="p" title="P">`, `<tag name="pocket"></tag>`, `<tag name="secret"></tag>`)},
		{"and counts them", req("GET", "/tag/_tagcloud?distribution=raw", asCarol, ""), want(200,
			`<tag name="pocket" count="7">`, `<tag name="secret" count="1">`)},
		{"Admin too", req("GET", "/user/alice/tags/_projects", asAdmin, ""), want(200, `<project name="home:alice:secret" title="S">`)},

		{"alice deletes the package", req("DELETE", "/source/home:alice:secret/p", asAlice, ""), ok},
		{"its tags are gone", req("GET", "/tag/secret/_all", asAlice, ""), code(404, "tag_not_found")},
		{"the project's stay", req("GET", "/tag/hidden/_projects", asAlice, ""), want(200, `<project name="home:alice:secret" title="S">`)},
		{"she deletes the project", req("DELETE", "/source/home:alice:secret", asAlice, ""), ok},
		{"its tags are gone too", req("GET", "/tag/hidden/_all", asAlice, ""), code(404, "tag_not_found")},
		{"the count is back", req("GET", "/tag/_tagcloud?distribution=raw", asAlice, ""), want(200, `<tag name="pocket" count="5">`)},
	})
}

// TestTagRoutesNever500: odd names, encodings, methods and bodies on every tag route answer 4xx
// (or 200), never 5xx.
func TestTagRoutesNever500(t *testing.T) {
	e := newEnv(t)
	names := []string{"%00", "%2e%2e", "a%0Ab", "%FF%FE", "%2F", "_", "::", "a::::b", "%3F", "pocket%3A%3Acli"}
	routes := []string{
		"/source/devel:tools/%s/_tags", "/source/%s/_tags", "/tag/%s/_projects", "/tag/%s/_packages", "/tag/%s/_all",
		"/user/%s/tags/_projects", "/user/%s/tags/_tagcloud", "/user/alice/tags/%s", "/user/alice/tags/devel:tools/%s",
		"/tag/_tagcloud?steps=%s&limit=%s&distribution=%s",
	}
	bodies := []string{"", "\x00junk", `<tags><tag name="&#0;"/></tags>`, `<tags><tag name="a&#1;b"/></tags>`, `<tags><tag/><tag name=""/></tags>`}
	for _, r := range routes {
		for _, n := range names {
			path := strings.ReplaceAll(r, "%s", n)
			for _, m := range []string{"GET", "PUT", "POST", "DELETE"} {
				for _, b := range bodies {
					if got := apitest.Do(t, e.app, req(m, path, asAlice, b)); got.Status >= 500 {
						t.Errorf("%s %s %q: %d %s", m, path, b, got.Status, got.Body)
					}
				}
			}
		}
	}
}
