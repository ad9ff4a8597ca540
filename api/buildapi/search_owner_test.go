package buildapi

import (
	"net/url"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// ownerEnv is the demo world (Pocket:1.0 carries OBS:OwnerRootProject) with: a hidden project,
// a project linking to devel:libs with an unowned libpocket of its own, and farm records of
// binaries built by demo packages — one binary two Pocket:1.0 packages build, one a devel:tools
// package builds under another name.
func ownerEnv(t *testing.T) *env {
	e := newEnv(t)
	e.run(t, []scenario{
		{"a hidden project", req("PUT", "/source/home:alice:secret/_meta", asAlice, `<project name="home:alice:secret"><title>S</title><description/>`+
			`<person userid="alice" role="maintainer"/><access><disable/></access><repository name="hidden"><arch>x86_64</arch></repository></project>`), ok},
		{"a project linking to devel:libs", req("PUT", "/source/home:alice:own/_meta", asAlice,
			`<project name="home:alice:own"><title>O</title><description/><link project="devel:libs"/></project>`), ok},
		{"its unowned libpocket", req("PUT", "/source/home:alice:own/libpocket/_meta", asAlice, `<package name="libpocket"><title/><description/></package>`), ok},
	})
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	bin := func(prj, pkg, name string) (buildstore.Where, buildstore.Binary) {
		return buildstore.Where{Project: prj, Repository: "standard", Arch: "x86_64"},
			buildstore.Binary{Package: pkg, Filename: name + "-1-0.x86_64.rpm", Name: name, Version: "1", Release: "0", Arch: "x86_64", MTime: now}
	}
	if err := e.db.Write(func(tx kv.Tx) error {
		for _, b := range [][3]string{{"Pocket:1.0", "pocket-release", "pocket-common"}, {"Pocket:1.0", "pocket-repos", "pocket-common"},
			{"Pocket:1.0", "pocket-repos", "pocket-repos"}, {"devel:tools", "forge-utils", "forge-utils-doc"}} {
			w, b := bin(b[0], b[1], b[2])
			if err := buildstore.PutBinary(tx, w, b, []byte("rpm")); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return e
}

// ownerURL is /search/<route>?<params>.
func ownerURL(route string, params ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(params); i += 2 {
		v.Add(params[i], params[i+1])
	}
	return "/search/" + route + "?" + v.Encode()
}

// ownerCollection is the exact owner search answer holding lines (each indented by two).
func ownerCollection(lines ...string) apitest.Expect {
	body := "<collection>"
	if len(lines) == 0 {
		return apitest.Expect{Status: 200, Exact: body + "</collection>\n"}
	}
	for _, l := range lines {
		body += "\n  " + l
	}
	return apitest.Expect{Status: 200, Exact: body + "\n</collection>\n"}
}

// TestSearchOwner: /search/owner as osc maintainer and bugowner ask it (binary, user, group,
// filter, limit) and its refusals.
func TestSearchOwner(t *testing.T) {
	e := ownerEnv(t)
	o := "owner"
	e.run(t, []scenario{
		{"osc maintainer pocket-cli: its devel package's project", req("GET", ownerURL(o, "binary", "pocket-cli"), asBob, ""), ownerCollection(
			`<owner rootproject="Pocket:1.0" project="devel:tools">`, `  <person name="alice" role="maintainer"></person>`, `</owner>`)},
		{"devel=false: the package's project", req("GET", ownerURL(o, "binary", "pocket-cli", "devel", "false"), asBob, ""), ownerCollection(
			`<owner rootproject="Pocket:1.0" project="Pocket:1.0">`, `  <person name="Admin" role="maintainer"></person>`, `</owner>`)},
		{"a package with its own maintainer", req("GET", ownerURL(o, "binary", "pocket-base"), asBob, ""), ownerCollection(
			`<owner rootproject="Pocket:1.0" project="Pocket:1.0" package="pocket-base">`, `  <person name="alice" role="maintainer"></person>`, `</owner>`)},
		{"filter=reviewer: the group", req("GET", ownerURL(o, "binary", "pocket-base", "filter", "reviewer"), asBob, ""), ownerCollection(
			`<owner rootproject="Pocket:1.0" project="Pocket:1.0" package="pocket-base">`, `  <group name="pocket-reviewers" role="reviewer"></group>`, `</owner>`)},
		{"osc bugowner pocket-cli: nobody", req("GET", ownerURL(o, "binary", "pocket-cli", "filter", "bugowner"), asBob, ""), ownerCollection()},
		{"an empty filter: the package that built it", req("GET", ownerURL(o, "binary", "pocket-cli", "filter", ""), asBob, ""), ownerCollection(
			`<owner rootproject="Pocket:1.0" project="devel:tools" package="pocket-cli"></owner>`)},
		{"a binary the farm built under another name", req("GET", ownerURL(o, "binary", "forge-utils-doc", "project", "devel:tools"), asBob, ""), ownerCollection(
			`<owner rootproject="devel:tools" project="devel:tools">`, `  <person name="alice" role="maintainer"></person>`, `</owner>`)},
		{"a package found by its binary", req("GET", ownerURL(o, "binary", "pocket-repos"), asBob, ""), ownerCollection(
			`<owner rootproject="Pocket:1.0" project="Pocket:1.0" package="pocket-repos">`, `  <person name="bob" role="maintainer"></person>`, `</owner>`)},
		{"limit 1 (default): the first package", req("GET", ownerURL(o, "binary", "pocket-common"), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`package="pocket-release"`}, Excludes: []string{`package="pocket-repos"`}}},
		{"limit 0: all", req("GET", ownerURL(o, "binary", "pocket-common", "limit", "0"), asBob, ""), ownerCollection(
			`<owner rootproject="Pocket:1.0" project="Pocket:1.0" package="pocket-release">`, `  <person name="alice" role="maintainer"></person>`, `</owner>`,
			`<owner rootproject="Pocket:1.0" project="Pocket:1.0" package="pocket-repos">`, `  <person name="bob" role="maintainer"></person>`, `</owner>`)},
		{"limit -1: the deepest", req("GET", ownerURL(o, "binary", "pocket-common", "limit", "-1"), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`package="pocket-repos"`}, Excludes: []string{`package="pocket-release"`}}},
		{"nobody in the package's project: the linked project's", req("GET", ownerURL(o, "binary", "libpocket", "project", "home:alice:own", "filter", "bugowner"), asBob, ""), ownerCollection(
			`<owner rootproject="home:alice:own" project="devel:libs">`, `  <person name="bob" role="bugowner"></person>`, `</owner>`)},
		{"a base binary has no package", req("GET", ownerURL(o, "binary", "glibc"), asBob, ""), ownerCollection()},
		{"an unknown binary", req("GET", ownerURL(o, "binary", "no-such-binary"), asBob, ""), ownerCollection()},
		{"osc maintainer -U alice", req("GET", ownerURL(o, "user", "alice"), asBob, ""), ownerCollection(
			`<owner rootproject="Pocket:1.0" project="Pocket:1.0" package="000productcompose"></owner>`,
			`<owner rootproject="Pocket:1.0" project="Pocket:1.0" package="pocket-base"></owner>`,
			`<owner rootproject="Pocket:1.0" project="Pocket:1.0" package="pocket-release"></owner>`)},
		{"-U in another root: the project first", req("GET", ownerURL(o, "user", "bob", "project", "devel:libs"), asBob, ""), ownerCollection(
			`<owner rootproject="devel:libs" project="devel:libs"></owner>`, `<owner rootproject="devel:libs" project="devel:libs" package="libforge"></owner>`)},
		{"osc maintainer -G -r reviewer", req("GET", ownerURL(o, "group", "pocket-reviewers", "filter", "reviewer"), asBob, ""), ownerCollection(
			`<owner rootproject="Pocket:1.0" project="Pocket:1.0" package="pocket-base"></owner>`)},
		{"a group holding no default role", req("GET", ownerURL(o, "group", "pocket-reviewers"), asBob, ""), ownerCollection()},
		{"POST with a form", apitest.Request{Method: "POST", Path: "/search/owner", Body: "binary=pocket-base",
			Header: map[string]string{"Authorization": asBob["Authorization"], "Content-Type": "application/x-www-form-urlencoded"}},
			want(200, `package="pocket-base"`)},

		{"no binary, user or group", req("GET", ownerURL(o, "project", "Pocket:1.0"), asBob, ""), code(400, "no_binary", "The search needs at least a 'binary' or 'user' parameter")},
		{"an unknown user", req("GET", ownerURL(o, "user", "nobody"), asBob, ""), code(404, "not_found", "Couldn't find User with login = nobody")},
		{"an unknown group", req("GET", ownerURL(o, "group", "nogroup"), asBob, ""), code(404, "not_found", "Couldn't find Group 'nogroup'")},
		{"a limit that is no number", req("GET", ownerURL(o, "binary", "pocket-cli", "limit", "x"), asBob, ""),
			code(400, "invalid_limit", "The limit (x) must be either a positive number, 0 or -1.")},
		{"a limit below -1", req("GET", ownerURL(o, "binary", "pocket-cli", "limit", "-2"), asBob, ""), code(400, "invalid_limit")},
		{"an unknown role", req("GET", ownerURL(o, "binary", "pocket-cli", "filter", "maintainer,boss"), asBob, ""), code(404, "not_found", "Couldn't find Role 'boss'")},
		{"an unknown attribute", req("GET", ownerURL(o, "binary", "pocket-cli", "attribute", "OBS:Nope"), asBob, ""), code(404, "unknown_attribute_type", "Attribute Type OBS:Nope does not exist")},
		{"an attribute without namespace", req("GET", ownerURL(o, "binary", "pocket-cli", "attribute", "Nope"), asBob, ""), code(400, "invalid_attribute")},
		{"an attribute no project carries", req("GET", ownerURL(o, "binary", "pocket-cli", "attribute", "OBS:Maintained"), asBob, ""),
			code(400, "attribute_not_set", "The attribute type OBS:Maintained is not set on any projects. No default projects defined.")},
		{"an unknown project", req("GET", ownerURL(o, "binary", "pocket-cli", "project", "nope"), asBob, ""), code(404, "unknown_project", "Project not found: nope")},
		{"a hidden project is unknown", req("GET", ownerURL(o, "user", "alice", "project", "home:alice:secret"), asBob, ""), code(404, "unknown_project")},
		{"its member may search it", req("GET", ownerURL(o, "user", "alice", "project", "home:alice:secret"), asAlice, ""), ownerCollection(
			`<owner rootproject="home:alice:secret" project="home:alice:secret"></owner>`)},
		{"without credentials", req("GET", ownerURL(o, "binary", "pocket-cli"), nil, ""), apitest.Expect{Status: 401}},
	})
}

// TestSearchMissingOwner: packages nobody owns, with the project and link fallbacks.
func TestSearchMissingOwner(t *testing.T) {
	e := ownerEnv(t)
	m := "missing_owner"
	missing := func(root, project, pkg string) string {
		return `<missing_owner rootproject="` + root + `" project="` + project + `" package="` + pkg + `"></missing_owner>`
	}
	e.run(t, []scenario{
		{"Pocket:1.0's maintainer owns every package", req("GET", ownerURL(m), asBob, ""), ownerCollection()},
		{"no bugowner anywhere in Pocket:1.0", req("GET", ownerURL(m, "filter", "bugowner"), asBob, ""), ownerCollection(
			missing("Pocket:1.0", "Pocket:1.0", "000productcompose"), missing("Pocket:1.0", "Pocket:1.0", "pocket-base"),
			missing("Pocket:1.0", "Pocket:1.0", "pocket-cli"), missing("Pocket:1.0", "Pocket:1.0", "pocket-filesystem"),
			missing("Pocket:1.0", "Pocket:1.0", "pocket-release"), missing("Pocket:1.0", "Pocket:1.0", "pocket-repos"))},
		{"package bugowners count, the project's maintainers not", req("GET", ownerURL(m, "project", "devel:tools", "filter", "bugowner"), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{missing("devel:tools", "devel:tools", "forge-build"), missing("devel:tools", "devel:tools", "pocket-cli")},
				Excludes: []string{`package="forge-changelog"`, `package="pocket-lint"`}}},
		{"a linked project's bugowner owns the name", req("GET", ownerURL(m, "project", "home:alice:own", "filter", "bugowner"), asBob, ""), ownerCollection()},
		{"the name is answered where the root finds it first", req("GET", ownerURL(m, "project", "home:alice:own", "filter", "reviewer"), asBob, ""), ownerCollection(
			missing("home:alice:own", "home:alice:own", "libpocket"))},
		{"a limit that is no number", req("GET", ownerURL(m, "limit", "x"), asBob, ""), code(400, "invalid_limit")},
		{"an unknown role", req("GET", ownerURL(m, "filter", "boss"), asBob, ""), code(404, "not_found", "Couldn't find Role 'boss'")},
	})
}

// TestSearchPersonRepositoryIssue: the xpath searches over persons, repositories and issues.
func TestSearchPersonRepositoryIssue(t *testing.T) {
	e := ownerEnv(t)
	p, r, i := "/search/person", "/search/repository/id", "/search/issue"
	e.run(t, []scenario{
		{"a person by login", req("GET", searchURL(p, `@login='alice'`, ""), asBob, ""), apitest.Expect{Status: 200, Exact: `<collection matches="1">` + "\n" +
			"  <person>\n    <login>alice</login>\n    <email>alice@pocketforge.test</email>\n    <realname>Alice Packager</realname>\n    <state>confirmed</state>\n  </person>\n</collection>\n"}},
		{"a real name, any case", req("GET", searchURL(p, `contains(@realname, 'BUILDER')`, ""), asBob, ""), want(200, `<collection matches="1">`, `<login>bob</login>`)},
		{"by email, any case", req("GET", searchURL(p, `@email='Carol@PocketForge.test'`, ""), asBob, ""), want(200, `<collection matches="1">`, `<login>carol</login>`)},
		{"a login heeds case (utf8_bin)", req("GET", searchURL(p, `@login='ALICE' or starts-with(@login, 'ALI')`, ""), asBob, ""), apitest.Expect{Status: 200, Exact: `<collection matches="0"></collection>` + "\n"}},
		{"by state, paged", req("GET", searchURL(p, `@state='confirmed' and starts-with(@email, 'A')`, "limit=1"), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="2">`, `<login>Admin</login>`, `<globalrole>Admin</globalrole>`}, Excludes: []string{`<login>alice</login>`}}},
		{"person: the element is no key", req("GET", searchURL(p, `login='alice'`, ""), asBob, ""), code(400, "illegal_xpath_error", "unable to evaluate 'login' for 'users'")},
		{"person: empty match", req("GET", p, asBob, ""), code(400, "empty_match")},

		{"repositories of a project", req("GET", searchURL(r, `@project='devel:tools'`, ""), asBob, ""), apitest.Expect{Status: 200,
			Exact: `<collection matches="1">` + "\n" + `  <repository project="devel:tools" name="standard"></repository>` + "\n</collection>\n"}},
		{"what builds against devel:libs", req("GET", searchURL(r, `path/@project='devel:libs' and path/@repository='standard'`, ""), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<collection matches="2">`, `project="devel:tools"`, `project="home:bob:forks"`}}},
		{"what builds against Pocket:1.0", req("GET", searchURL(r, `path/@project='Pocket:1.0'`, ""), asBob, ""),
			want(200, `project="devel:libs"`, `project="devel:tools"`, `project="home:alice"`)},
		{"no products", req("GET", searchURL(r, `targetproduct/@name='Pocket'`, ""), asBob, ""), want(200, `<collection matches="0">`)},
		{"a blank match: every repository, the hidden ones not", req("GET", r, asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`project="Pocket:1.0" name="standard"`}, Excludes: []string{`home:alice:secret`}}},
		{"a member sees the hidden one", req("GET", searchURL(r, `@name='hidden'`, ""), asAlice, ""), want(200, `<collection matches="1">`, `project="home:alice:secret"`)},
		{"repository: unknown key", req("GET", searchURL(r, `@foo='x'`, ""), asBob, ""), code(400, "illegal_xpath_error", "unable to evaluate '@foo' for 'repositories'")},

		{"an issue the demo changes name", req("GET", searchURL(i, `@tracker='pocket' and @name='8'`, ""), asBob, ""), apitest.Expect{Status: 200,
			Exact: "<collection matches=\"1\">\n  <issue>\n    <created_at>2026-11-21 10:00:00 UTC</created_at>\n    <updated_at>2026-11-21 10:00:00 UTC</updated_at>\n" +
				"    <name>8</name>\n    <tracker>pocket</tracker>\n    <label>pocket#8</label>\n    <url>https://issues.pocketforge.test/8</url>\n  </issue>\n</collection>\n"}},
		{"an issue nothing names", req("GET", searchURL(i, `@tracker='pocket' and @name='1'`, ""), asBob, ""), apitest.Expect{Status: 200, Exact: "<collection matches=\"0\"></collection>\n"}},
		{"issue: empty match", req("GET", i+"?match=", asBob, ""), code(400, "empty_match")},
		{"issue: unknown key", req("GET", searchURL(i, `@label='x'`, ""), asBob, ""), code(400, "illegal_xpath_error", "unable to evaluate '@label' for 'issues'")},
	})
}
