package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

func TestBinaryRoutes(t *testing.T) {
	w := newBinWorld(t)
	const where = "/build/binworld/standard/x86_64"
	asBob := basic("bob", "bob-password")
	rpmType := map[string]string{"Content-Type": "application/x-rpm"}
	w.run(t, []scenario{
		{"binarylist", req("GET", where+"/hello", asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			"<binarylist>", `<binary filename="hello-1.0-1.1.x86_64.rpm" size="`, `<binary filename="hello-1.0-1.1.src.rpm"`}}},
		{"binarylist of an unresolvable package is empty", req("GET", where+"/lost", asBob, ""), apitest.Expect{Status: 200, Exact: "<binarylist></binarylist>\n"}},
		{"binarylist view=binaryversions is not served", req("GET", where+"/hello?view=binaryversions", asBob, ""), code(400, "400", "unsupported view")},
		{"a binary", req("GET", where+"/hello/hello-1.0-1.1.x86_64.rpm", asBob, ""), apitest.Expect{Status: 200, Header: rpmType, Contains: []string{"\xed\xab\xee\xdb"}}},
		{"the source rpm", req("GET", where+"/hello/hello-1.0-1.1.src.rpm", asBob, ""), apitest.Expect{Status: 200, Header: rpmType}},
		{"fileinfo", req("GET", where+"/hello/hello-1.0-1.1.x86_64.rpm?view=fileinfo", asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			`<fileinfo filename="hello-1.0-1.1.x86_64.rpm">`, "<name>hello</name>", "<version>1.0</version>", "<release>1.1</release>",
			"<arch>x86_64</arch>", "<summary>The hello tool</summary>", "<description>hello does things.</description>",
			"<provides>hello = 1.0-1.1</provides>", "<requires>foo-api &gt;= 2</requires>"}, Excludes: []string{"requires_ext"}}},
		{"fileinfo_ext", req("GET", where+"/hello/hello-1.0-1.1.x86_64.rpm?view=fileinfo_ext", asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			`<requires_ext dep="foo-api &gt;= 2">`,
			`<providedby name="libfoo" version="1.0" release="1.1" arch="x86_64" project="binworld" repository="standard">`}}},
		{"fileinfo_ext of a library", req("GET", where+"/libfoo/libfoo-1.0-1.1.x86_64.rpm?view=fileinfo_ext", asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			`<provides_ext dep="foo-api = 2">`,
			`<requiredby name="hello" version="1.0" release="1.1" arch="x86_64" project="binworld" repository="standard">`}}},
		{"unknown view", req("GET", where+"/hello/hello-1.0-1.1.x86_64.rpm?view=cpio", asBob, ""), code(400, "400")},
		{"unknown binary", req("GET", where+"/hello/nope.rpm", asBob, ""), code(404, "404", "nope.rpm: No such file or directory")},
		{"unknown binary's fileinfo", req("GET", where+"/hello/nope.rpm?view=fileinfo", asBob, ""), code(404, "404")},
		{"traversal, encoded", req("GET", where+"/hello/..%2F..%2Fhello.spec", asBob, ""), code(404, "404")},
		{"dot dot", req("GET", where+"/hello/..", asBob, ""), apitest.Expect{Status: 404}},
		{"hidden file name", req("GET", where+"/hello/.hello.rpm", asBob, ""), code(404, "404")},
		{"a binary of another package", req("GET", where+"/libfoo/hello-1.0-1.1.x86_64.rpm", asBob, ""), code(404, "404")},
		{"unknown package", req("GET", where+"/nope", asBob, ""), code(404, "unknown_package")},
		{"unknown package's binary", req("GET", where+"/nope/x.rpm", asBob, ""), code(404, "unknown_package")},
		{"unknown arch", req("GET", "/build/binworld/standard/ppc/hello", asBob, ""), code(404, "unknown_architecture")},
		{"unknown repository", req("GET", "/build/binworld/nope/x86_64/hello", asBob, ""), code(404, "unknown_repository")},
		{"unknown project", req("GET", "/build/nope/standard/x86_64/hello", asBob, ""), code(404, "unknown_project")},
		{"hidden project", req("GET", "/build/binworld:hidden/standard/x86_64/secret", asBob, ""), code(404, "unknown_project")},
		{"hidden project's binary", req("GET", "/build/binworld:hidden/standard/x86_64/secret/secret-1.0-1.1.x86_64.rpm", asBob, ""), code(404, "unknown_project")},
		{"its maintainer sees it", req("GET", "/build/binworld:hidden/standard/x86_64/secret", asAlice, ""), apitest.Expect{Status: 200, Contains: []string{"secret-1.0-1.1.x86_64.rpm"}}},
		{"a closed package's binary", req("GET", where+"/closed/closed-1.0-1.1.x86_64.rpm", asBob, ""), apitest.Expect{Status: 200}},
		{"a closed package's source rpm", req("GET", where+"/closed/closed-1.0-1.1.src.rpm", asBob, ""), code(403, "source_access_no_permission")},
		{"a closed package's source rpm for alice", req("GET", where+"/closed/closed-1.0-1.1.src.rpm", asAlice, ""), apitest.Expect{Status: 200}},
		{"no credentials", req("GET", where+"/hello", nil, ""), apitest.Expect{Status: 401}},
	})
}
