package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestReadProtection: access disabled hides a project from non-members (404 everywhere, gone
// from the list); sourceaccess disabled keeps the meta but refuses the sources, also through a
// branch or a link; members and Admin read everything.
func TestReadProtection(t *testing.T) {
	e := newEnv(t)
	asCarol := basic("carol", "carol-password")
	secret := `<project name="home:alice:secret"><title>S</title><description/>` +
		`<person userid="alice" role="maintainer"/><person userid="carol" role="reader"/><access><disable/></access></project>`
	closed := `<project name="home:alice:closed"><title>C</title><description/><person userid="alice" role="maintainer"/>` +
		`<sourceaccess><disable/></sourceaccess></project>`
	e.run(t, []scenario{
		{"create a hidden project", req("PUT", "/source/home:alice:secret/_meta", asAlice, secret), ok},
		{"a package in it", req("PUT", "/source/home:alice:secret/p/_meta", asAlice, `<package name="p"><title/><description/></package>`), ok},
		{"a file", req("PUT", "/source/home:alice:secret/p/f", asAlice, "hush\n"), ok200},
		{"bob does not see it listed", req("GET", "/source", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"home:alice:secret"}}},
		{"carol (a reader) does", req("GET", "/source", asCarol, ""), want(200, `<entry name="home:alice:secret">`)},
		{"bob: its meta is a 404", req("GET", "/source/home:alice:secret/_meta", asBob, ""), code(404, "unknown_project")},
		{"bob: its packages", req("GET", "/source/home:alice:secret", asBob, ""), code(404, "unknown_project")},
		{"bob: a file", req("GET", "/source/home:alice:secret/p/f", asBob, ""), code(404, "unknown_project")},
		{"bob: a branch of it", req("POST", "/source/home:alice:secret/p?cmd=branch", asBob, ""), code(404, "unknown_project")},
		{"carol reads the file", req("GET", "/source/home:alice:secret/p/f", asCarol, ""), apitest.Expect{Status: 200, Exact: "hush\n"}},
		{"Admin reads it", req("GET", "/source/home:alice:secret/p/f", basic("Admin", adminPassword), ""), apitest.Expect{Status: 200, Exact: "hush\n"}},

		{"create a source-protected project", req("PUT", "/source/home:alice:closed/_meta", asAlice, closed), ok},
		{"a package", req("PUT", "/source/home:alice:closed/p/_meta", asAlice, `<package name="p"><title/><description/></package>`), ok},
		{"its file", req("PUT", "/source/home:alice:closed/p/f", asAlice, "closed\n"), ok200},
		{"bob sees it listed", req("GET", "/source", asBob, ""), want(200, `<entry name="home:alice:closed">`)},
		{"and its meta", req("GET", "/source/home:alice:closed/p/_meta", asBob, ""), want(200, `<package name="p" project="home:alice:closed">`)},
		{"not its file list", req("GET", "/source/home:alice:closed/p", asBob, ""), code(403, "source_access_no_permission")},
		{"not its file", req("GET", "/source/home:alice:closed/p/f", asBob, ""), code(403, "source_access_no_permission")},
		{"not its history", req("GET", "/source/home:alice:closed/p/_history", asBob, ""), code(403, "source_access_no_permission")},
		{"not a diff", req("POST", "/source/home:alice:closed/p?cmd=diff", asBob, ""), code(403, "source_access_no_permission")},
		{"not a branch", req("POST", "/source/home:alice:closed/p?cmd=branch", asBob, ""), code(403, "source_access_no_permission")},
		{"not a copy", req("POST", "/source/home:bob/stolen?cmd=copy&oproject=home:alice:closed&opackage=p", asBob, ""), code(403, "source_access_no_permission")},
		{"bob links to it", req("PUT", "/source/home:bob/l/_meta", asBob, `<package name="l"><title/><description/></package>`), ok},
		{"the link", req("PUT", "/source/home:bob/l/_link", asBob, `<link project="home:alice:closed" package="p"/>`), ok200},
		{"not through the link", req("GET", "/source/home:bob/l?expand=1", asBob, ""), code(403, "source_access_no_permission")},
		{"the package may open itself", req("PUT", "/source/home:alice:closed/p/_meta", asAlice,
			`<package name="p"><title/><description/><sourceaccess><enable/></sourceaccess></package>`), ok},
		{"then bob reads it", req("GET", "/source/home:alice:closed/p/f", asBob, ""), apitest.Expect{Status: 200, Exact: "closed\n"}},
	})
}
