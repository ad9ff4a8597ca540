package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

func want(status int, contains ...string) apitest.Expect {
	return apitest.Expect{Status: status, Contains: contains}
}

const (
	helloMD5 = "b1946ac92492d2347c6235b4d2611184" // "hello\n"
	specMD5  = "83118cc6897666f5aebb98f90bd5f515" // "Name: x\nVersion: 2.0\n"
	pkgMeta  = `<package name="x" project="home:alice"><title>X</title><description/></package>`
	list     = `<directory><entry name="x.spec" md5="` + specMD5 + `"/><entry name="hello.txt" md5="` + helloMD5 + `"/></directory>`
)

// TestFileReads: listings at every rev= form, file contents, history, and the read errors.
func TestFileReads(t *testing.T) {
	e := newEnv(t)
	cli := "/source/devel:tools/pocket-cli"
	e.run(t, []scenario{
		{"no credentials", req("GET", cli, nil, ""), apitest.Expect{Status: 401}},
		{"latest, unknown keys ignored", req("GET", cli+"?rev=latest&expand=1&linkrev=base&emptylink=1&lastworking=1", asBob, ""),
			want(200, `<directory name="pocket-cli" rev="3" vrev="1" srcmd5="`, `<entry name="pocket-cli-1.1.0.tar.gz" md5="`, `size="`, `mtime="`)},
		{"rev=1", req("GET", cli+"?rev=1", asBob, ""), want(200, `rev="1" vrev="1"`, `<entry name="pocket-cli-1.0.0.tar.gz"`)},
		{"rev=2: same version, vrev 2", req("GET", cli+"?rev=2", asBob, ""), want(200, `rev="2" vrev="2"`)},
		{"rev=0: empty", req("GET", cli+"?rev=0", asBob, ""), apitest.Expect{Status: 200,
			Exact: "<directory name=\"pocket-cli\" srcmd5=\"" + buildstore.EmptySrcMD5 + "\"></directory>\n"}},
		{"unknown rev", req("GET", cli+"?rev=9", asBob, ""), code(404, "404", "no such revision")},
		{"unknown srcmd5", req("GET", cli+"?rev=0123456789abcdef0123456789abcdef", asBob, ""), code(404, "404")},
		{"bad rev", req("GET", cli+"?rev=nope", asBob, ""), code(400, "invalid_revision")},
		{"a file", req("GET", cli+"/pocket-cli.spec", asBob, ""), apitest.Expect{Status: 200, Contains: []string{"Version:        1.1.0\n"},
			Header: map[string]string{"Content-Type": "application/octet-stream"}}},
		{"a file at rev 1", req("GET", cli+"/pocket-cli.spec?rev=1", asBob, ""), want(200, "Version:        1.0.0\n")},
		{"a file gone in later revs", req("GET", cli+"/pocket-cli-1.0.0.tar.gz", asBob, ""), code(404, "404", "<summary>pocket-cli-1.0.0.tar.gz: no such file</summary>")},
		{"a missing file", req("GET", cli+"/nope", asBob, ""), code(404, "404", "nope: no such file")},
		{"a file name with ..", req("GET", cli+"/a..b", asBob, ""), code(400, "invalid_filename")},
		{"a file of a missing package", req("GET", "/source/devel:tools/nope/x", asBob, ""), code(404, "unknown_package")},
		{"a missing package", req("GET", "/source/devel:tools/nope", asBob, ""), code(404, "unknown_package")},
		{"history", req("GET", cli+"/_history", asBob, ""), want(200, "<revisionlist>", `<revision rev="1" vrev="1">`,
			`<revision rev="3" vrev="1">`, "<version>1.1.0</version>", "<user>alice</user>", "<comment>Initial import of pocket-cli 1.0.0</comment>", "<time>")},
		{"history ?rev=2", req("GET", cli+"/_history?rev=2", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<revision rev="2" vrev="2">`},
			Excludes: []string{`rev="1"`, `rev="3"`}}},
		{"history of a missing package", req("GET", "/source/devel:tools/nope/_history", asBob, ""), code(404, "unknown_package")},
		{"project services", req("POST", cli+"?cmd=getprojectservices", asBob, ""), apitest.Expect{Status: 200, Exact: "<services></services>\n"}},
		{"unknown cmd", req("POST", cli+"?cmd=frobnicate", asAlice, ""), code(400, "illegal_request", "unsupported POST command frobnicate")},
		{"no cmd", req("POST", cli, asAlice, ""), code(400, "missing_parameter")},
		{"request search: none yet", req("GET", "/search/request?match=state/@name='new'", asBob, ""), want(200, `<collection matches="0">`)},
	})
}

// TestFileWrites: osc's commitfilelist round trip, direct PUT and DELETE, and who may write.
func TestFileWrites(t *testing.T) {
	e := newEnv(t)
	x := "/source/home:alice/x"
	e.run(t, []scenario{
		{"create package x", req("PUT", x+"/_meta", asAlice, pkgMeta), ok},
		{"empty package", req("GET", x, asAlice, ""), apitest.Expect{Status: 200,
			Exact: "<directory name=\"x\" srcmd5=\"" + buildstore.EmptySrcMD5 + "\"></directory>\n"}},
		{"commit: content missing", req("POST", x+"?cmd=commitfilelist&user=alice&comment=first&withvalidate=1", asAlice, list),
			want(200, `<directory name="x" error="missing">`, `<entry name="x.spec" md5="`+specMD5+`"></entry>`, `<entry name="hello.txt" md5="`+helloMD5+`"></entry>`)},
		{"nothing committed yet", req("GET", x+"/_history", asAlice, ""), apitest.Expect{Status: 200, Exact: "<revisionlist></revisionlist>\n"}},
		{"upload the spec", req("PUT", x+"/x.spec?rev=repository", asAlice, "Name: x\nVersion: 2.0\n"), ok},
		{"one still missing", req("POST", x+"?cmd=commitfilelist&comment=first", asAlice, list), apitest.Expect{Status: 200,
			Contains: []string{`error="missing"`, `name="hello.txt"`}, Excludes: []string{`name="x.spec"`}}},
		{"upload hello", req("PUT", x+"/hello.txt?rev=repository", asAlice, "hello\n"), ok},
		{"commit", req("POST", x+"?cmd=commitfilelist&user=mallory&comment=first", asAlice, list), want(200,
			`<directory name="x" rev="1" vrev="1" srcmd5="`, `<entry name="hello.txt" md5="`+helloMD5+`" size="6" mtime="`)},
		{"committer is the person, not ?user=", req("GET", x+"/_history", asAlice, ""), want(200, "<user>alice</user>", "<version>2.0</version>", "<comment>first</comment>")},
		{"direct PUT commits", req("PUT", x+"/empty?comment=second", asAlice, ""), want(200, `<revision rev="2" vrev="2">`,
			"<version>2.0</version>", "<user>alice</user>", "<comment>second</comment>")},
		{"an empty file", req("GET", x, asAlice, ""), want(200, `<entry name="empty" md5="`+buildstore.EmptySrcMD5+`" size="0"`)},
		{"DELETE a file commits", req("DELETE", x+"/hello.txt", asAlice, ""), ok},
		{"gone from latest", req("GET", x+"/hello.txt", asAlice, ""), code(404, "404")},
		{"still in rev 2", req("GET", x+"/hello.txt?rev=2", asAlice, ""), apitest.Expect{Status: 200, Exact: "hello\n"}},
		{"three revisions", req("GET", x, asAlice, ""), want(200, `rev="3" vrev="3"`)},
		{"DELETE a missing file", req("DELETE", x+"/hello.txt", asAlice, ""), code(404, "404", "hello.txt: no such file")},
		{"bob may not PUT", req("PUT", "/source/devel:tools/pocket-cli/f", asBob, "x"), code(403, "put_file_no_permission")},
		{"bob may not upload", req("PUT", "/source/devel:tools/pocket-cli/f?rev=repository", asBob, "x"), code(403, "put_file_no_permission")},
		{"bob may not commit", req("POST", "/source/devel:tools/pocket-cli?cmd=commitfilelist", asBob, list), code(403, "put_file_no_permission")},
		{"bob may not delete", req("DELETE", "/source/devel:tools/pocket-cli/pocket-cli.spec", asBob, ""), code(403, "delete_file_no_permission")},
		{"Admin may", req("PUT", "/source/devel:tools/pocket-cli/README", asAdmin, "hi\n"), want(200, `<revision rev="4" vrev="2">`, "<version>1.1.0</version>", "<user>Admin</user>")},
		{"unauthenticated PUT", req("PUT", x+"/f", nil, "x"), apitest.Expect{Status: 401}},
		{"file name with ..", req("PUT", x+"/..", asAlice, "x"), code(400, "invalid_filename")},
		{"file name with .. inside", req("PUT", x+"/a..b", asAlice, "x"), code(400, "invalid_filename")},
		{"_history is no file name", req("PUT", x+"/_history", asAlice, "x"), code(400, "invalid_filename")},
		{"a file name that is not UTF-8", req("PUT", x+"/a%FFb", asAlice, "x"), code(400, "invalid_filename", "not UTF-8")},
		{"an upload name that is not UTF-8", req("PUT", x+"/%C3%28?rev=upload", asAlice, "x"), code(400, "invalid_filename", "not UTF-8")},
		{"a repository upload name that is not UTF-8", req("PUT", x+"/%80?rev=repository", asAlice, "x"), code(400, "invalid_filename")},
		{"a read of a name that is not UTF-8", req("GET", x+"/%FE", asAlice, ""), code(400, "invalid_filename")},
		{"a list entry that is not UTF-8", req("POST", x+"?cmd=commitfilelist", asAlice, "<directory><entry name=\"a\xffb\" md5=\""+helloMD5+"\"/></directory>"), code(400, "invalid_xml", "invalid UTF-8")},
		{"nothing stored under a bad name", req("GET", x, asAlice, ""), apitest.Expect{Status: 200, Excludes: []string{"\uFFFD"}}},
		{"PUT to a missing package", req("PUT", "/source/home:alice/nope/f", asAlice, "x"), code(404, "unknown_package")},
		{"list with a bad name", req("POST", x+"?cmd=commitfilelist", asAlice, `<directory><entry name="a/b" md5="`+helloMD5+`"/></directory>`), code(400, "invalid_filename")},
		{"list with a bad md5", req("POST", x+"?cmd=commitfilelist", asAlice, `<directory><entry name="a" md5="zz"/></directory>`), code(400, "invalid_xml")},
		{"list not XML", req("POST", x+"?cmd=commitfilelist", asAlice, `<directory`), code(400, "invalid_xml")},
		{"a locked package", req("PUT", "/source/home:alice/y/_meta", asAlice, `<package name="y" project="home:alice"><title>Y</title><description/><lock><enable/></lock></package>`), ok},
		{"refuses writes", req("PUT", "/source/home:alice/y/f", asAlice, "x"), code(403, "project_locked", "The target project is locked")},
		{"delete the package", req("DELETE", x, asAlice, ""), ok},
		{"created again: no history", req("PUT", x+"/_meta", asAlice, pkgMeta), ok},
		{"empty again", req("GET", x, asAlice, ""), apitest.Expect{Status: 200, Exact: "<directory name=\"x\" srcmd5=\"" + buildstore.EmptySrcMD5 + "\"></directory>\n"}},
	})
}
