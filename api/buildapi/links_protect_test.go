package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestCopyReadProtection: a copy reads the origin's sources, so it applies the read protection
// of every read — a project hidden from the caller is a 404 (for a project copy and a package
// copy alike), protected sources (of the project or of one copied package) a 403 — while
// members and Admin still copy.
func TestCopyReadProtection(t *testing.T) {
	e := newEnv(t)
	secret := `<project name="home:alice:secret"><title>S</title><description/>` +
		`<person userid="alice" role="maintainer"/><person userid="carol" role="reader"/><access><disable/></access></project>`
	closed := `<project name="home:alice:closed"><title>C</title><description/><person userid="alice" role="maintainer"/>` +
		`<sourceaccess><disable/></sourceaccess></project>`
	pkg := `<package name="p"><title/><description/></package>`
	e.run(t, []scenario{
		{"a hidden project", req("PUT", "/source/home:alice:secret/_meta", asAlice, secret), ok},
		{"its package", req("PUT", "/source/home:alice:secret/p/_meta", asAlice, pkg), ok},
		{"its file", req("PUT", "/source/home:alice:secret/p/f", asAlice, "hush\n"), ok200},
		{"a source-protected project", req("PUT", "/source/home:alice:closed/_meta", asAlice, closed), ok},
		{"its package", req("PUT", "/source/home:alice:closed/p/_meta", asAlice, pkg), ok},
		{"its file", req("PUT", "/source/home:alice:closed/p/f", asAlice, "closed\n"), ok200},
		{"an open project", req("PUT", "/source/home:alice:open/_meta", asAlice,
			`<project name="home:alice:open"><title/><description/><person userid="alice" role="maintainer"/></project>`), ok},
		{"an open package", req("PUT", "/source/home:alice:open/a/_meta", asAlice, `<package name="a"><title/><description/></package>`), ok},
		{"its file", req("PUT", "/source/home:alice:open/a/f", asAlice, "open\n"), ok200},
		{"a closed package", req("PUT", "/source/home:alice:open/z/_meta", asAlice,
			`<package name="z"><title/><description/><sourceaccess><disable/></sourceaccess></package>`), ok},
		{"its file", req("PUT", "/source/home:alice:open/z/f", asAlice, "mine\n"), ok200},

		{"bob copies the hidden project", req("POST", "/source/home:bob:loot?cmd=copy&oproject=home:alice:secret", asBob, ""),
			code(404, "unknown_project", "Project not found: home:alice:secret")},
		{"nothing was made", req("GET", "/source/home:bob:loot/_meta", asBob, ""), code(404, "unknown_project")},
		{"bob copies the protected sources", req("POST", "/source/home:bob:loot?cmd=copy&oproject=home:alice:closed", asBob, ""),
			code(403, "source_access_no_permission")},
		{"still nothing", req("GET", "/source/home:bob:loot/_meta", asBob, ""), code(404, "unknown_project")},
		{"bob copies a project with one closed package", req("POST", "/source/home:bob:loot?cmd=copy&oproject=home:alice:open", asBob, ""),
			code(403, "source_access_no_permission")},
		{"bob copies a package of the hidden project", req("POST", "/source/home:bob/x?cmd=copy&oproject=home:alice:secret&opackage=p", asBob, ""),
			code(404, "unknown_project")},
		{"not into his home either", req("GET", "/source/home:bob/x", asBob, ""), code(404, "unknown_package")},

		{"carol (a reader) copies the hidden project", req("POST", "/source/home:carol:copy?cmd=copy&oproject=home:alice:secret", asCarol, ""), ok},
		{"and reads the copy", req("GET", "/source/home:carol:copy/p/f", asCarol, ""), apitest.Expect{Status: 200, Exact: "hush\n"}},
		{"the copy stays hidden from bob", req("GET", "/source/home:carol:copy/p/f", asBob, ""), code(404, "unknown_project")},
		{"alice (a member) copies the protected one", req("POST", "/source/home:alice:closed2?cmd=copy&oproject=home:alice:closed", asAlice, ""), ok},
		{"Admin copies it too", req("POST", "/source/home:bob:fromadmin?cmd=copy&oproject=home:alice:closed", asAdmin, ""), ok},
		{"Admin copies the open one", req("POST", "/source/home:bob:open?cmd=copy&oproject=home:alice:open", asAdmin, ""), ok},
		{"with both packages", req("GET", "/source/home:bob:open", asAdmin, ""), want(200, `<entry name="a">`, `<entry name="z">`)},
	})
}

// TestLinkedProjectsProtection: a project link to a hidden project reveals neither its name nor
// its packages — not in ?expand=1, not in showlinked of the project or the package it links
// to — while members and Admin see them.
func TestLinkedProjectsProtection(t *testing.T) {
	e := newEnv(t)
	secret := `<project name="home:alice:secret"><title>S</title><description/>` +
		`<person userid="alice" role="maintainer"/><person userid="carol" role="reader"/><access><disable/></access>` +
		`<link project="devel:tools"/></project>`
	e.run(t, []scenario{
		{"a hidden project linking to devel:tools", req("PUT", "/source/home:alice:secret/_meta", asAlice, secret), ok},
		{"its package", req("PUT", "/source/home:alice:secret/hidden-pkg/_meta", asAlice, `<package name="hidden-pkg"><title/><description/></package>`), ok},
		{"a package named as one of devel:tools", req("PUT", "/source/home:alice:secret/forge-utils/_meta", asAlice,
			`<package name="forge-utils"><title/><description/></package>`), ok},
		{"a link to pocket-cli in it", req("PUT", "/source/home:alice:secret/hidden-pkg/_link", asAlice, `<link project="devel:tools" package="pocket-cli"/>`), ok200},
		{"a visible project linking to it", req("PUT", "/source/home:alice:pub/_meta", asAlice,
			`<project name="home:alice:pub"><title/><description/><person userid="alice" role="maintainer"/>`+
				`<link project="home:alice:secret"/><link project="devel:libs"/></project>`), ok},
		{"its own package", req("PUT", "/source/home:alice:pub/own/_meta", asAlice, `<package name="own"><title/><description/></package>`), ok},

		{"bob: expand=1 hides the linked project", req("GET", "/source/home:alice:pub?expand=1", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<entry name="own" originproject="home:alice:pub">`, `originproject="devel:libs"`},
			Excludes: []string{"home:alice:secret", "hidden-pkg", "devel:tools"}}},
		{"carol (a reader) sees it", req("GET", "/source/home:alice:pub?expand=1", asCarol, ""), want(200,
			`<entry name="hidden-pkg" originproject="home:alice:secret">`, `<entry name="forge-utils" originproject="home:alice:secret">`,
			`<entry name="pocket-cli" originproject="devel:tools">`)},
		{"Admin sees it", req("GET", "/source/home:alice:pub?expand=1", asAdmin, ""), want(200,
			`<entry name="hidden-pkg" originproject="home:alice:secret">`)},
		{"bob: showlinked of devel:tools", req("POST", "/source/devel:tools?cmd=showlinked", asBob, ""), apitest.Expect{Status: 200,
			Excludes: []string{"home:alice:secret"}}},
		{"Admin: showlinked of devel:tools", req("POST", "/source/devel:tools?cmd=showlinked", asAdmin, ""), want(200,
			`<project name="home:alice:secret">`)},
		{"bob: showlinked of pocket-cli", req("POST", "/source/devel:tools/pocket-cli?cmd=showlinked", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<package project="Pocket:1.0" name="pocket-cli">`}, Excludes: []string{"home:alice:secret"}}},
		{"carol: showlinked of pocket-cli", req("POST", "/source/devel:tools/pocket-cli?cmd=showlinked", asCarol, ""), want(200,
			`<package project="home:alice:secret" name="hidden-pkg">`)},
	})
}

// TestSecondProjectReadProtection: a read that names a second project besides the one in the
// path — a diff against oproject, a package link, a project link or devel project in a meta —
// treats a project hidden from the caller as missing, so it neither leaks its files nor tells
// that it exists.
func TestSecondProjectReadProtection(t *testing.T) {
	e := newEnv(t)
	secret := `<project name="home:alice:secret"><title>S</title><description/>` +
		`<person userid="alice" role="maintainer"/><person userid="carol" role="reader"/><access><disable/></access></project>`
	pkg := `<package name="p"><title/><description/></package>`
	bobs := func(extra string) string {
		return `<project name="home:bob:probe"><title/><description/><person userid="bob" role="maintainer"/>` + extra + `</project>`
	}
	e.run(t, []scenario{
		{"a hidden project", req("PUT", "/source/home:alice:secret/_meta", asAlice, secret), ok},
		{"its package", req("PUT", "/source/home:alice:secret/p/_meta", asAlice, pkg), ok},
		{"its file", req("PUT", "/source/home:alice:secret/p/f", asAlice, "hush\n"), ok200},
		{"bob's package", req("PUT", "/source/home:bob/p/_meta", asBob, pkg), ok},

		{"bob diffs against the hidden one", req("POST", "/source/home:bob/p?cmd=diff&oproject=home:alice:secret&opackage=p", asBob, ""),
			code(404, "unknown_project", "Project not found: home:alice:secret")},
		{"carol (a reader) may", req("POST", "/source/home:bob/p?cmd=diff&oproject=home:alice:secret&opackage=p", asCarol, ""),
			want(200, "-hush")},
		{"bob's meta links to it: as if it did not exist", req("PUT", "/source/home:bob:probe/_meta", asBob, bobs(`<link project="home:alice:secret"/>`)),
			code(400, "validation_failed", "unable to link against project 'home:alice:secret'")},
		{"the same answer as for a missing project", req("PUT", "/source/home:bob:probe/_meta", asBob, bobs(`<link project="home:alice:nothing"/>`)),
			code(400, "validation_failed", "unable to link against project 'home:alice:nothing'")},
		{"a devel project likewise", req("PUT", "/source/home:bob:probe/_meta", asBob, bobs(`<devel project="home:alice:secret"/>`)),
			code(400, "validation_failed", "project 'home:alice:secret' does not exist")},
		{"carol links to it", req("PUT", "/source/home:carol:probe/_meta", asCarol,
			`<project name="home:carol:probe"><title/><description/><person userid="carol" role="maintainer"/><link project="home:alice:secret"/></project>`), ok},
	})
}
