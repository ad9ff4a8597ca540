package buildapi

import (
	"strconv"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// treeMD5 is the srcmd5 of a tree given as name → content.
func treeMD5(files map[string]string) string {
	var list []buildstore.FileEntry
	for name, content := range files {
		list = append(list, buildstore.FileEntry{Name: name, MD5: buildstore.MD5Hex([]byte(content))})
	}
	return buildstore.SrcMD5(list)
}

// TestLinks: a plain link in home:alice — unexpanded and expanded listings, ?rev=<xsrcmd5>,
// expanded file reads, a keeplink commit, linktobranch, showlinked, broken links and _link
// validation.
func TestLinks(t *testing.T) {
	e := newEnv(t)
	const spec = "Name: t\nVersion: 2.0\n\n%build\nmake\n"
	const linkDoc = `<link package="t"><patches><delete name="README"/></patches></link>`
	target := map[string]string{"t.spec": spec, "README": "read me\n"}
	link := map[string]string{"_link": linkDoc, "extra": "local\n"}
	x := buildstore.XSrcMD5(treeMD5(target), treeMD5(link))
	T, L := "/source/home:alice/t", "/source/home:alice/l"
	e.run(t, []scenario{
		{"target meta", req("PUT", T+"/_meta", asAlice, `<package name="t"><title>T</title><description/></package>`), ok},
		{"target spec", req("PUT", T+"/t.spec", asAlice, spec), want(200, `<revision rev="1"`)},
		{"target README", req("PUT", T+"/README", asAlice, "read me\n"), want(200, `<revision rev="2"`)},
		{"link meta", req("PUT", L+"/_meta", asAlice, `<package name="l"><title>L</title><description/></package>`), ok},
		{"a _link that is not a link", req("PUT", L+"/_link", asAlice, `<lnk/>`), code(400, "validation_failed", "link validation error")},
		{"a _link with an entity", req("PUT", L+"/_link", asAlice, `<!DOCTYPE l [<!ENTITY e SYSTEM "file:///etc/passwd">]><link package="&e;"/>`), code(400, "validation_failed")},
		{"the _link", req("PUT", L+"/_link", asAlice, linkDoc), want(200, `<revision rev="1"`)},
		{"a local file", req("PUT", L+"/extra", asAlice, "local\n"), want(200, `<revision rev="2"`)},
		{"unexpanded listing", req("GET", L, asBob, ""), apitest.Expect{Status: 200, Exact: `<directory name="l" rev="2" vrev="2" srcmd5="` + treeMD5(link) + `">` +
			"\n  " + `<linkinfo project="home:alice" package="t" srcmd5="` + treeMD5(target) + `" xsrcmd5="` + x + `"></linkinfo>` +
			"\n  " + `<entry name="_link" md5="` + buildstore.MD5Hex([]byte(linkDoc)) + `" size="` + strconv.Itoa(len(linkDoc)) + `" mtime="1795348800"></entry>` +
			"\n  " + `<entry name="extra" md5="` + buildstore.MD5Hex([]byte("local\n")) + `" size="6" mtime="1795348800"></entry>` + "\n</directory>\n"}},
		{"expanded listing", req("GET", L+"?expand=1", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<directory name="l" rev="` + x + `" vrev="4" srcmd5="` + x + `">`, `lsrcmd5="` + treeMD5(link) + `"`, `<entry name="extra"`, `<entry name="t.spec"`},
			Excludes: []string{"README", `name="_link"`, "xsrcmd5"}}},
		{"the expansion by its xsrcmd5", req("GET", L+"?rev="+x, asBob, ""), want(200, `rev="`+x+`"`, `lsrcmd5="`, `<entry name="t.spec"`)},
		{"an expanded file", req("GET", L+"/t.spec?rev="+x, asBob, ""), apitest.Expect{Status: 200, Exact: spec}},
		{"expand=1 file read", req("GET", L+"/t.spec?expand=1", asBob, ""), apitest.Expect{Status: 200, Exact: spec}},
		{"not in the link's own tree", req("GET", L+"/t.spec", asBob, ""), code(404, "404")},
		{"diff of the expansion against the target", req("POST", L+"?cmd=diff&expand=1&oproject=home:alice&opackage=t", asBob, ""),
			want(200, "--- README (revision 2)\n+++ README (deleted)\n", "--- extra (added)\n")},
		{"showlinked", req("POST", T+"?cmd=showlinked", asBob, ""), want(200, `<package project="home:alice" name="l">`)},
		{"keeplink commit", req("POST", L+"?cmd=commitfilelist&keeplink=1", asAlice, `<directory><entry name="t.spec" md5="`+buildstore.MD5Hex([]byte(spec))+
			`"/><entry name="extra" md5="`+buildstore.MD5Hex([]byte("local\n"))+`"/><entry name="README" md5="`+buildstore.MD5Hex([]byte("read me\n"))+`"/></directory>`),
			apitest.Expect{Status: 200, Contains: []string{`rev="3"`, `<linkinfo project="home:alice" package="t"`, `xsrcmd5="`, `<entry name="_link"`, `<entry name="extra"`},
				Excludes: []string{`"t.spec"`, `"README"`}}},
		{"README is back (no more delete)", req("GET", L+"/README?expand=1", asBob, ""), apitest.Expect{Status: 200, Exact: "read me\n"}},
		{"linktobranch by bob", req("POST", L+"?cmd=linktobranch", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"linktobranch", req("POST", L+"?cmd=linktobranch", asAlice, ""), ok},
		{"now a branch", req("GET", L+"/_link", asBob, ""), want(200, "<branch/>", `baserev="`+treeMD5(target)+`"`)},
		{"with full copies", req("GET", L, asBob, ""), want(200, `<entry name="t.spec"`, `<entry name="README"`, `<entry name="extra"`)},
		{"linktobranch twice", req("POST", L+"?cmd=linktobranch", asAlice, ""), code(400, "400", "package is already a branch")},
		{"linktobranch of a plain package", req("POST", T+"?cmd=linktobranch", asAlice, ""), code(400, "400", "package is not a link")},
		{"a link to nowhere", req("PUT", "/source/home:alice/gone/_meta", asAlice, `<package name="gone"><title/><description/></package>`), ok},
		{"its _link", req("PUT", "/source/home:alice/gone/_link", asAlice, `<link project="home:alice" package="nope"/>`), ok200},
		{"broken: linkinfo error", req("GET", "/source/home:alice/gone", asBob, ""), want(200, `error="package &#39;home:alice/nope&#39; does not exist"`)},
		{"broken: no expansion", req("GET", "/source/home:alice/gone?expand=1", asBob, ""), code(400, "400", "package 'home:alice/nope' does not exist")},
	})
}

// TestBranch: cmd=branch and its refusals.
func TestBranch(t *testing.T) {
	e := newEnv(t)
	cli := "/source/devel:tools/pocket-cli"
	branched := "/source/home:bob:branches:devel:tools/pocket-cli"
	e.run(t, []scenario{
		{"branch", req("POST", cli+"?cmd=branch", asBob, ""), apitest.Expect{Status: 200, Exact: `<status code="ok">` +
			"\n  <summary>Ok</summary>\n" + `  <data name="targetproject">home:bob:branches:devel:tools</data>` + "\n" +
			`  <data name="targetpackage">pocket-cli</data>` + "\n" + `  <data name="sourceproject">devel:tools</data>` + "\n" +
			`  <data name="sourcepackage">pocket-cli</data>` + "\n</status>\n"}},
		{"again", req("POST", cli+"?cmd=branch", asBob, ""), apitest.Expect{Status: 400, Contains: []string{`code="double_branch_package"`,
			"<summary>branch target package already exists: home:bob:branches:devel:tools/pocket-cli</summary>"}}},
		{"the branch project", req("GET", "/source/home:bob:branches:devel:tools/_meta", asBob, ""), want(200,
			"<title>Branch project for package pocket-cli</title>", `<person userid="bob" role="maintainer">`, `<path project="devel:tools" repository="standard">`)},
		{"the branch", req("GET", branched, asBob, ""), want(200, `<linkinfo project="devel:tools" package="pocket-cli"`, `baserev="`, `<entry name="_link"`, `<entry name="pocket-cli.spec"`)},
		{"its _link", req("GET", branched+"/_link", asBob, ""), want(200, `<link project="devel:tools" package="pocket-cli" baserev="`, "<branch/>")},
		{"to a named target", req("POST", cli+"?cmd=branch&target_project=home:bob&target_package=cli2", asBob, ""), want(200, `<data name="targetpackage">cli2</data>`)},
		{"into someone else's project", req("POST", cli+"?cmd=branch&target_project=home:alice", asBob, ""), code(403, "create_package_no_permission")},
		{"into a project bob may not create", req("POST", cli+"?cmd=branch&target_project=devel:bob", asBob, ""), code(403, "create_project_no_permission")},
		{"a bad target name", req("POST", cli+"?cmd=branch&target_project=a::b", asBob, ""), code(400, "invalid_project_name")},
		{"a bad package name", req("POST", cli+"?cmd=branch&target_package=../x", asBob, ""), code(400, "invalid_package_name")},
		{"a missing package", req("POST", "/source/devel:tools/nope?cmd=branch", asBob, ""), code(404, "unknown_package")},
		{"a missing project", req("POST", "/source/nope/x?cmd=branch", asBob, ""), code(404, "unknown_project")},
		{"missingok on an existing one", req("POST", cli+"?cmd=branch&missingok=1&target_package=x3", asBob, ""), code(400, "not_missing")},
		{"missingok", req("POST", "/source/devel:tools/later?cmd=branch&missingok=1", asBob, ""), ok200},
		{"a missingok link", req("GET", "/source/home:bob:branches:devel:tools/later/_link", asBob, ""), want(200, `missingok="true"`)},
	})
}
