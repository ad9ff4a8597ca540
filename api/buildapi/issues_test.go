package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// issueEnv is the demo world (its .changes mention pocket#8, #27, #31 and two GitHub issues;
// alice's branch of forge-utils adds gh#pocketforge/forge-utils#7) with a hidden project whose
// package mentions pocket#99.
func issueEnv(t *testing.T) *env {
	e := newEnv(t)
	e.run(t, []scenario{
		{"a hidden project", req("PUT", "/source/home:alice:secret/_meta", asAlice, `<project name="home:alice:secret"><title>S</title><description/>`+
			`<person userid="alice" role="maintainer"/><access><disable/></access></project>`), ok},
		{"a package in it", req("PUT", "/source/home:alice:secret/p/_meta", asAlice, `<package name="p"><title/><description/></package>`), ok},
		{"whose changes name pocket#99", req("PUT", "/source/home:alice:secret/p/p.changes", asAlice, "- secret fix (pocket#99)\n"), want(200)},
	})
	return e
}

// TestSearchIssue: /search/issue over the demo world's issue records, each key of OBS's issues
// table, the equality the records are keyed by, paging and the 400s.
func TestSearchIssue(t *testing.T) {
	e := issueEnv(t)
	i := "/search/issue"
	none := want(200, `<collection matches="0"></collection>`)
	e.runGolden(t, "", []goldenScenario{
		iss("by tracker and name: one record", req("GET", searchURL(i, `@tracker='pocket' and @name='31'`, ""), asBob, ""), want(200), "issues_search_one"),
		iss("by tracker", req("GET", searchURL(i, `@tracker='gh'`, ""), asBob, ""), want(200), "issues_search_gh"),
		iss("by name alone", req("GET", searchURL(i, `@name='8'`, ""), asBob, ""), want(200, `<collection matches="1">`, `<label>pocket#8</label>`), ""),
		iss("either of two names", req("GET", searchURL(i, `@tracker='pocket' and (@name='8' or @name='27')`, ""), asBob, ""),
			want(200, `<collection matches="2">`, `<name>8</name>`, `<name>27</name>`), ""),
		iss("contains, any case", req("GET", searchURL(i, `contains(@name, 'FORGE')`, ""), asBob, ""),
			want(200, `<collection matches="2">`, `<name>pocketforge/libforge#42</name>`, `<name>pocketforge/forge-utils#7</name>`), ""),
		iss("starts-with", req("GET", searchURL(i, `starts-with(@name, '3')`, ""), asBob, ""), want(200, `<collection matches="1">`, `<name>31</name>`), ""),
		iss("no state is fetched", req("GET", searchURL(i, `@state='OPEN'`, ""), asBob, ""), none, ""),
		iss("not() takes the missing state", req("GET", searchURL(i, `not(@state='CLOSED') and @tracker='gh'`, ""), asBob, ""), want(200, `<collection matches="2">`), ""),
		iss("not() of a tracker", req("GET", searchURL(i, `not(@tracker='pocket')`, ""), asBob, ""), want(200, `<collection matches="2">`), ""),
		iss("no owner is fetched", req("GET", searchURL(i, `owner/@login='alice' or owner/@email='alice@pocketforge.test'`, ""), asBob, ""), none, ""),
		iss("a hidden package's issue: the record is global", req("GET", searchURL(i, `@name='99'`, ""), asBob, ""),
			want(200, `<collection matches="1">`, `<name>99</name>`), ""),
		iss("paged: limit and offset", req("GET", searchURL(i, `@tracker='pocket'`, "limit=2&offset=1"), asBob, ""), want(200), "issues_search_paged"),
		iss("an unknown tracker", req("GET", searchURL(i, `@tracker='nope' and @name='1'`, ""), asBob, ""), none, ""),
		iss("POST", req("POST", searchURL(i, `@name='31'`, ""), asBob, ""), want(200, `<collection matches="1">`), ""),
		iss("empty match", req("GET", i+"?match=", asBob, ""), code(400, "empty_match"), ""),
		iss("no match at all", req("GET", i, asBob, ""), code(400, "empty_match"), ""),
		iss("unknown key", req("GET", searchURL(i, `@label='x'`, ""), asBob, ""), code(400, "illegal_xpath_error", "unable to evaluate '@label' for 'issues'"), ""),
		iss("an element is no key", req("GET", searchURL(i, `summary='x'`, ""), asBob, ""), code(400, "illegal_xpath_error", "unable to evaluate 'summary' for 'issues'"), ""),
		iss("bad syntax", req("GET", searchURL(i, `@name=`, ""), asBob, ""), code(400, "illegal_xpath_error"), ""),
	})
}

// TestPackageSearchIssues: the package search's issue keys read the issues a package's sources
// name; a hidden project's packages stay hidden.
func TestPackageSearchIssues(t *testing.T) {
	e := issueEnv(t)
	k := "/search/package/id"
	e.runGolden(t, "", []goldenScenario{
		iss("by issue name", req("GET", searchURL(k, `issue/@name='31'`, ""), asBob, ""), want(200), "issues_package_search"),
		iss("by tracker", req("GET", searchURL(k, `issue/@tracker='gh'`, ""), asBob, ""), want(200, `<collection matches="2">`,
			`project="devel:libs" name="libforge"`, `project="home:alice:branches:devel:tools" name="forge-utils"`), ""),
		iss("one issue entry with both", req("GET", searchURL(k, `issue[@tracker='pocket' and @name='8']`, ""), asBob, ""),
			want(200, `<collection matches="1">`, `name="pocket-filesystem"`), ""),
		iss("with the meta's keys", req("GET", searchURL(k, `issue/@tracker='pocket' and @project='devel:libs'`, ""), asBob, ""),
			want(200, `<collection matches="1">`, `name="libpocket-json"`), ""),
		iss("what a branch adds", req("GET", searchURL(k, `issue/@change='added'`, ""), asBob, ""),
			want(200, `<collection matches="1">`, `name="forge-utils"`), ""),
		iss("no state", req("GET", searchURL(k, `issue/@state='OPEN'`, ""), asBob, ""), want(200, `<collection matches="0">`), ""),
		iss("no owner", req("GET", searchURL(k, `issue/owner/@login='alice'`, ""), asBob, ""), want(200, `<collection matches="0">`), ""),
		iss("a hidden project's package stays hidden", req("GET", searchURL(k, `issue/@name='99'`, ""), asBob, ""), want(200, `<collection matches="0">`), ""),
		iss("its member finds it", req("GET", searchURL(k, `issue/@name='99'`, ""), asAlice, ""),
			want(200, `<collection matches="1">`, `project="home:alice:secret" name="p"`), ""),
		iss("the full route answers the meta alone", req("GET", searchURL("/search/package", `issue/@name='31'`, ""), asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<package name="pocket-release" project="Pocket:1.0">`}, Excludes: []string{"<issue"}}, ""),
	})
}

// TestViewIssues: GET /source/P/K?view=issues and /source/P?view=issues, their filters, read
// protection, and the issues following commits, attributes and deletes.
func TestViewIssues(t *testing.T) {
	e := issueEnv(t)
	branch := "/source/home:alice:branches:devel:tools/forge-utils?view=issues"
	e.runGolden(t, "", []goldenScenario{
		iss("a package", req("GET", "/source/Pocket:1.0/pocket-release?view=issues", asBob, ""), want(200), "issues_view_package"),
		iss("a branch: what it adds", req("GET", branch, asBob, ""), want(200), "issues_view_branch"),
		iss("a project", req("GET", "/source/devel:libs?view=issues", asBob, ""), want(200), "issues_view_project"),
		iss("changes filter", req("GET", branch+"&changes=kept,deleted", asBob, ""), apitest.Expect{Status: 200,
			Exact: "<package project=\"home:alice:branches:devel:tools\" name=\"forge-utils\">\n  <kind>link</kind>\n</package>\n"}, ""),
		iss("changes filter that keeps it", req("GET", branch+"&changes=added", asBob, ""), want(200, `<issue change="added">`), ""),
		iss("states filter: no state is known", req("GET", branch+"&states=OPEN,UNKNOWN", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"<issue"}}, ""),
		iss("login filter: no owner is known", req("GET", "/source/devel:libs?view=issues&login=bob", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<package project="devel:libs" name="libforge"></package>`}, Excludes: []string{"<issue"}}, ""),
		iss("unknown package", req("GET", "/source/devel:libs/nope?view=issues", asBob, ""), code(404, "unknown_package"), ""),
		iss("unknown project", req("GET", "/source/nope?view=issues", asBob, ""), code(404, "unknown_project"), ""),
		iss("hidden package", req("GET", "/source/home:alice:secret/p?view=issues", asBob, ""), code(404, "unknown_project"), ""),
		iss("hidden project", req("GET", "/source/home:alice:secret?view=issues", asBob, ""), code(404, "unknown_project"), ""),
		iss("its member", req("GET", "/source/home:alice:secret/p?view=issues", asAlice, ""), want(200, `<issue change="kept">`, `<name>99</name>`), ""),

		iss("a commit names a new issue", req("PUT", "/source/devel:tools/pocket-cli/pocket-cli.changes", asAlice, "- fix pocket#500 and pocket#501\n"), want(200), ""),
		iss("the package names it", req("GET", "/source/devel:tools/pocket-cli?view=issues", asBob, ""), want(200, `<name>500</name>`, `<name>501</name>`), ""),
		iss("the record is there", req("GET", searchURL("/search/issue", `@tracker='pocket' and @name='500'`, ""), asBob, ""),
			want(200, `<collection matches="1">`, `<created_at>2026-11-22 12:00:00 UTC</created_at>`), ""),
		iss("a commit drops one", req("PUT", "/source/devel:tools/pocket-cli/pocket-cli.changes", asAlice, "- fix pocket#500\n"), want(200), ""),
		iss("the package no longer names it", req("GET", "/source/devel:tools/pocket-cli?view=issues", asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<name>500</name>`}, Excludes: []string{`<name>501</name>`}}, ""),
		iss("nor does the search", req("GET", searchURL("/search/package/id", `issue/@name='501'`, ""), asBob, ""), want(200, `<collection matches="0">`), ""),
		iss("the record stays, as in OBS", req("GET", searchURL("/search/issue", `@name='501'`, ""), asBob, ""), want(200, `<collection matches="1">`), ""),
		iss("an attribute names an issue", req("POST", "/source/devel:tools/pocket-cli/_attribute", asAlice,
			`<attributes><attribute namespace="OBS" name="Issues"><issue name="600" tracker="pocket"/></attribute></attributes>`), ok, ""),
		iss("the package view shows it, without a change", req("GET", "/source/devel:tools/pocket-cli?view=issues&changes=kept", asBob, ""),
			apitest.Expect{Status: 200, Excludes: []string{`<name>600</name>`}}, ""),
		iss("unfiltered it is there", req("GET", "/source/devel:tools/pocket-cli?view=issues", asBob, ""),
			want(200, "<issue>\n    <created_at>2026-11-22 12:00:00 UTC</created_at>\n    <updated_at>2026-11-22 12:00:00 UTC</updated_at>\n    <name>600</name>"), ""),
		iss("the project view leaves it out, as OBS's", req("GET", "/source/devel:tools?view=issues", asBob, ""),
			apitest.Expect{Status: 200, Contains: []string{`<name>500</name>`}, Excludes: []string{`<name>600</name>`}}, ""),
		iss("and it is a record", req("GET", searchURL("/search/issue", `@name='600'`, ""), asBob, ""), want(200, `<collection matches="1">`), ""),
		iss("the package is deleted", req("DELETE", "/source/devel:tools/pocket-cli", asAlice, ""), ok, ""),
		iss("its issues go with it", req("GET", searchURL("/search/package/id", `issue/@name='500'`, ""), asBob, ""), want(200, `<collection matches="0">`), ""),
		iss("its view is gone", req("GET", "/source/devel:tools/pocket-cli?view=issues", asBob, ""), code(404, "unknown_package"), ""),
		iss("an unknown view", req("GET", "/source/devel:tools/forge-utils?view=nope", asBob, ""), code(400, "400", "unknown view 'nope' (info, cpio, issues or products)"), ""),
	})
}

// iss is a golden scenario of this file's tables: name, request, expectation, golden file.
func iss(name string, r apitest.Request, x apitest.Expect, golden string) goldenScenario {
	return goldenScenario{name: name, Request: r, Expect: x, golden: golden}
}
