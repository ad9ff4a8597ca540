package buildapi

import (
	"bytes"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/packaging/rpmout"
	"github.com/pocketforge/pocketforge/packaging/specfile"
)

func uploadRPM(t *testing.T, r rpmout.RPM) string {
	t.Helper()
	var buf bytes.Buffer
	if err := rpmout.Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestRepositoryRoutes: the where's repository lists what builds may install, by name; Admin
// uploads an RPM and the unresolvable package that needed it builds.
func TestRepositoryRoutes(t *testing.T) {
	w := newBinWorld(t)
	const repo = "/build/binworld/standard/x86_64/_repository"
	asBob := basic("bob", "bob-password")
	devel := uploadRPM(t, rpmout.RPM{Name: "nonexistent-devel", Version: "3.0", Release: "1", Arch: "x86_64", Summary: "Uploaded",
		Description: "An uploaded binary.", License: "MIT", Provides: []specfile.Dep{{Name: "devel-api", Op: "=", Version: "3"}}})
	wrongArch := uploadRPM(t, rpmout.RPM{Name: "armthing", Version: "1", Release: "1", Arch: "aarch64", Summary: "S", Description: "D", License: "MIT"})
	w.run(t, []scenario{
		{"list", req("GET", repo, asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			`<binary filename="hello.rpm" size="`, `<binary filename="libfoo.rpm"`}, Excludes: []string{"src.rpm", "secret"}}},
		{"by name", req("GET", repo+"/hello.rpm", asBob, ""), apitest.Expect{Status: 200, Header: map[string]string{"Content-Type": "application/x-rpm"}}},
		{"by bare name", req("GET", repo+"/libfoo", asBob, ""), apitest.Expect{Status: 200}},
		{"fileinfo by name", req("GET", repo+"/libfoo.rpm?view=fileinfo", asBob, ""), apitest.Expect{Status: 200, Contains: []string{"<provides>foo-api = 2</provides>"}}},
		{"unknown", req("GET", repo+"/nope.rpm", asBob, ""), code(404, "404")},
		{"view=names", req("GET", repo+"?view=names", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<binary filename="hello.rpm"`}}},
		{"view=cpio is not served", req("GET", repo+"?view=cpio", asBob, ""), code(400, "400", "unsupported view")},
		{"upload not named .rpm", req("PUT", repo+"/thing.deb", asAdmin, devel), code(400, "400", "must end in .rpm")},
		{"traversal", req("GET", repo+"/..%2Fhello", asBob, ""), code(404, "404")},
		{"unknown arch", req("GET", "/build/binworld/standard/i586/_repository", asBob, ""), code(404, "unknown_architecture")},
		{"hidden", req("GET", "/build/binworld:hidden/standard/x86_64/_repository", asBob, ""), code(404, "unknown_project")},
		{"match by a packager", req("POST", repo+"?match=starts-with(name,'hel')", asAlice, ""), code(403, "admin_required")},
		{"match by Admin", req("POST", repo+"?match=starts-with(name,'hel')", asAdmin, ""), apitest.Expect{Status: 200,
			Exact: "<collection>\n  <value>hello</value>\n</collection>\n"}},
		{"match a provide", req("POST", repo+"?match=[provides='foo-api']", asAdmin, ""), apitest.Expect{Status: 200, Contains: []string{"<value>libfoo</value>"}, Excludes: []string{"hello"}}},
		{"match by name", req("POST", repo+"?match=@name='libfoo'", asAdmin, ""), apitest.Expect{Status: 200, Contains: []string{"<value>libfoo</value>"}}},
		{"match nothing", req("POST", repo+"?match=contains(name,'zzz')", asAdmin, ""), apitest.Expect{Status: 200, Exact: "<collection></collection>\n"}},
		{"match that is no predicate", req("POST", repo+"?match=//package[", asAdmin, ""), code(400, "400", "unsupported match")},
		{"upload by a maintainer", req("PUT", repo+"/nonexistent-devel.rpm", asAlice, devel), code(403, "admin_required")},
		{"upload to a hidden project", req("PUT", "/build/binworld:hidden/standard/x86_64/_repository/x.rpm", asBob, devel), code(404, "unknown_project")},
		{"upload of no rpm", req("PUT", repo+"/junk.rpm", asAdmin, "junk"), code(400, "400", "not an RPM")},
		{"upload for another arch", req("PUT", repo+"/armthing.rpm", asAdmin, wrongArch), code(400, "400", "aarch64")},
		{"upload with a path", req("PUT", repo+"/..%2Fx.rpm", asAdmin, devel), code(404, "404")},
		{"upload", req("PUT", repo+"/nonexistent-devel.rpm", asAdmin, devel), apitest.Expect{Status: 200, Contains: []string{`<status code="ok">`}}},
		{"listed", req("GET", repo, asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<binary filename="nonexistent-devel.rpm"`}}},
	})
	for range 4 {
		w.tick(t)
		w.clk.Advance(11e9)
		w.tick(t)
	}
	w.run(t, []scenario{
		{"the waiting package built", req("GET", "/build/binworld/standard/x86_64/lost", asBob, ""), apitest.Expect{Status: 200, Contains: []string{"lost-1.0-1.1.x86_64.rpm"}}},
	})
}
