package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestBuildInfoRoutes: buildinfo from the committed spec and from a posted one, builddepinfo in
// its views, and the repository's merged configuration.
func TestBuildInfoRoutes(t *testing.T) {
	w := newBinWorld(t)
	const where = "/build/binworld/standard/x86_64"
	asBob := basic("bob", "bob-password")
	w.must(t, "PUT", "/source/binworld/_config", asAdmin, "Preinstall: hello\nRunscripts: hello\n%define pocket_test 1\n")
	w.run(t, []scenario{
		{"buildinfo", req("GET", where+"/hello/_buildinfo", asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			`<buildinfo project="binworld" repository="standard" package="hello">`, "<arch>x86_64</arch>", "<srcmd5>", "<verifymd5>",
			"<rev>1</rev>", "<file>hello.spec</file>", "<versrel>1.0-1.2</versrel>", "<bcnt>2</bcnt>", "<release>1.2</release>",
			"<subpack>hello</subpack>", "<dep>foo-api</dep>",
			`<bdep name="libfoo" version="1.0" release="1.1" arch="x86_64" project="binworld" repository="standard">`,
			`<bdep name="hello" preinstall="1" runscripts="1" notmeta="1" version="1.0"`,
			`<path project="binworld" repository="standard">`}, Excludes: []string{"<error>"}}},
		{"buildinfo of an unresolvable package", req("GET", where+"/lost/_buildinfo", asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			"<error>unresolvable: nothing provides nonexistent-devel</error>"}}},
		{"posted spec for _repository", req("POST", where+"/_repository/_buildinfo", asBob, worldSpec("local", "BuildRequires: foo-api")), apitest.Expect{Status: 200, Contains: []string{
			`package="_repository"`, "<file>upload.spec</file>", "<subpack>local</subpack>", `<bdep name="hello" preinstall="1" runscripts="1" notmeta="1"`, `<bdep name="libfoo" version="1.0"`}}},
		{"posted spec that needs what nobody has", req("POST", where+"/hello/_buildinfo", asBob, worldSpec("hello", "BuildRequires: ghost-lib")), apitest.Expect{Status: 200, Contains: []string{
			"<error>unresolvable: nothing provides ghost-lib</error>"}}},
		{"an added dependency is a build dependency (not notmeta)", req("GET", where+"/libfoo/_buildinfo?add=hello", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<bdep name="hello" preinstall="1" runscripts="1" version="1.0"`}}},
		{"an added dependency nobody has", req("GET", where+"/libfoo/_buildinfo?add=ghost", asBob, ""), apitest.Expect{Status: 200, Contains: []string{"<error>unresolvable: nothing provides ghost</error>"}}},
		{"posted spec that does not parse", req("POST", where+"/hello/_buildinfo", asBob, "Name: x\n%if 1\n"), code(400, "400")},
		{"posted garbage", req("POST", where+"/_repository/_buildinfo", asBob, "\x00\x01"), code(400, "400")},
		{"GET _repository has no recipe", req("GET", where+"/_repository/_buildinfo", asBob, ""), code(404, "unknown_package")},
		{"unknown package", req("GET", where+"/nope/_buildinfo", asBob, ""), code(404, "unknown_package")},
		{"unknown arch", req("GET", "/build/binworld/standard/s390x/hello/_buildinfo", asBob, ""), code(404, "unknown_architecture")},
		{"hidden project", req("GET", "/build/binworld:hidden/standard/x86_64/secret/_buildinfo", asBob, ""), code(404, "unknown_project")},
		{"hidden project, posted", req("POST", "/build/binworld:hidden/standard/x86_64/_repository/_buildinfo", asBob, worldSpec("x", "")), code(404, "unknown_project")},

		{"builddepinfo", req("GET", where+"/_builddepinfo", asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			`<package name="hello">`, "<source>hello</source>", "<pkgdep>libfoo</pkgdep>", "<subpkg>hello</subpkg>", `<package name="libfoo">`}}},
		{"builddepinfo of one package", req("GET", where+"/_builddepinfo?package=hello", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<package name="hello">`}, Excludes: []string{`<package name="libfoo">`}}},
		{"builddepinfo pkgnames", req("GET", where+"/_builddepinfo?view=pkgnames&package=hello", asBob, ""), apitest.Expect{Status: 200, Contains: []string{"<pkgdep>libfoo</pkgdep>"}}},
		{"builddepinfo revpkgnames", req("GET", where+"/_builddepinfo?view=revpkgnames&package=libfoo", asBob, ""), apitest.Expect{Status: 200, Contains: []string{"<pkgdep>hello</pkgdep>"}}},
		{"builddepinfo order", req("POST", where+"/_builddepinfo?view=order", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<package name="libfoo"></package>`}}},
		{"builddepinfo of nothing", req("GET", where+"/_builddepinfo?package=nope", asBob, ""), apitest.Expect{Status: 200, Exact: "<builddepinfo></builddepinfo>\n"}},
		{"builddepinfo, unknown repository", req("GET", "/build/binworld/nope/x86_64/_builddepinfo", asBob, ""), code(404, "unknown_repository")},
		{"builddepinfo, hidden", req("GET", "/build/binworld:hidden/standard/x86_64/_builddepinfo", asBob, ""), code(404, "unknown_project")},

		{"buildconfig", req("GET", "/build/binworld/standard/_buildconfig", asBob, ""), apitest.Expect{Status: 200,
			Header:   map[string]string{"Content-Type": "text/plain; charset=utf-8"},
			Contains: []string{"%define _project binworld", "### from binworld", "Preinstall: hello", "%define pocket_test 1"}}},
		{"buildconfig under _repository", req("GET", where+"/_repository/_buildconfig", asBob, ""), apitest.Expect{Status: 200, Contains: []string{"### from binworld"}}},
		{"buildconfig, unknown repository", req("GET", "/build/binworld/nope/_buildconfig", asBob, ""), code(404, "unknown_repository")},
		{"buildconfig, unknown project", req("GET", "/build/nope/standard/_buildconfig", asBob, ""), code(404, "unknown_project")},
		{"buildconfig, hidden", req("GET", "/build/binworld:hidden/standard/_buildconfig", asBob, ""), code(404, "unknown_project")},
	})
}
