package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestPublishedRoutes: the published tree of a finished repository, its metadata, a binary's
// ymp, and the read protection and bad paths.
func TestPublishedRoutes(t *testing.T) {
	w := newBinWorld(t)
	asBob := basic("bob", "bob-password")
	const tree = "/published/binworld/standard"
	w.run(t, []scenario{
		{"projects", req("GET", "/published", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<entry name="binworld">`}, Excludes: []string{"binworld:hidden"}}},
		{"projects as alice", req("GET", "/published", asAlice, ""), apitest.Expect{Status: 200, Contains: []string{`<entry name="binworld:hidden">`}}},
		{"repositories", req("GET", "/published/binworld", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<directory count="1">`, `<entry name="standard">`}}},
		{"top", req("GET", tree, asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<entry name="repodata">`, `<entry name="src">`, `<entry name="x86_64">`}}},
		{"arch dir", req("GET", tree+"/x86_64", asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			`<entry name="hello-1.0-1.1.x86_64.rpm">`, `<entry name="libfoo-1.0-1.1.x86_64.rpm">`}}},
		{"repodata", req("GET", tree+"/repodata", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<entry name="repomd.xml">`}}},
		{"repomd.xml", req("GET", tree+"/repodata/repomd.xml", asBob, ""), apitest.Expect{Status: 200, Contains: []string{"<repomd", "primary"},
			Header: map[string]string{"Content-Type": "application/xml"}}},
		{"a binary", req("GET", tree+"/x86_64/hello-1.0-1.1.x86_64.rpm", asBob, ""), apitest.Expect{Status: 200, Header: map[string]string{"Content-Type": "application/x-rpm"}}},
		{"a source rpm", req("GET", tree+"/src/hello-1.0-1.1.src.rpm", asBob, ""), apitest.Expect{Status: 200}},
		{"a closed package's source rpm", req("GET", tree+"/src/closed-1.0-1.1.src.rpm", asBob, ""), code(403, "source_access_no_permission")},
		{"a closed package's source rpm for Admin", req("GET", tree+"/src/closed-1.0-1.1.src.rpm", asAdmin, ""), apitest.Expect{Status: 200}},
		{"ymp", req("GET", tree+"/x86_64/hello-1.0-1.1.x86_64.rpm?view=ymp", asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			`<metapackage xmlns:os="http://opensuse.org/Standards/One_Click_Install"`, "<name>binworld</name>", "<summary>Bin world</summary>",
			"<url>http://example.com/published/binworld/standard/</url>", "<name>hello</name>", "<summary>The hello tool</summary>"}}},
		{"ymp's type", req("GET", tree+"/x86_64/hello-1.0-1.1.x86_64.rpm?view=ymp", asBob, ""), apitest.Expect{Status: 200, Header: map[string]string{"Content-Type": "text/x-suse-ymp"}}},
		{"fileinfo", req("GET", tree+"/x86_64/hello-1.0-1.1.x86_64.rpm?view=fileinfo", asBob, ""), apitest.Expect{Status: 200, Contains: []string{
			`<fileinfo filename="hello-1.0-1.1.x86_64.rpm">`, "<name>hello</name>", "<requires>foo-api &gt;= 2</requires>"}}},
		{"fileinfo of metadata", req("GET", tree+"/repodata/repomd.xml?view=fileinfo", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<fileinfo filename="repomd.xml">`}}},
		{"unknown view", req("GET", tree+"/x86_64/hello-1.0-1.1.x86_64.rpm?view=cpio", asBob, ""), code(400, "400")},
		{"unknown file", req("GET", tree+"/x86_64/nope.rpm", asBob, ""), code(404, "404")},
		{"unknown file's ymp", req("GET", tree+"/x86_64/nope.rpm?view=ymp", asBob, ""), code(404, "404")},
		{"unknown dir", req("GET", tree+"/ppc64", asBob, ""), code(404, "404")},
		{"traversal", req("GET", tree+"/..%2F..%2Fbinworld:hidden/x", asBob, ""), code(404, "404")},
		{"dot dir", req("GET", tree+"/./repodata", asBob, ""), apitest.Expect{Status: 404}},
		{"unknown repository", req("GET", "/published/binworld/nope", asBob, ""), code(404, "unknown_repository")},
		{"unknown project", req("GET", "/published/nope", asBob, ""), code(404, "unknown_project")},
		{"hidden project", req("GET", "/published/binworld:hidden", asBob, ""), code(404, "unknown_project")},
		{"hidden project's tree", req("GET", "/published/binworld:hidden/standard/x86_64", asBob, ""), code(404, "unknown_project")},
		{"hidden project's repodata", req("GET", "/published/binworld:hidden/standard/repodata/repomd.xml", asBob, ""), code(404, "unknown_project")},
		{"hidden project's tree for alice", req("GET", "/published/binworld:hidden/standard/x86_64", asAlice, ""), apitest.Expect{Status: 200, Contains: []string{"secret-1.0-1.1.x86_64.rpm"}}},
	})
}
