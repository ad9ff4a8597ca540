package buildapi

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// TestDeleteUndelete: a deleted package keeps its history (a tombstone), is listed with
// ?deleted=1, comes back with cmd=undelete plus a revision, and a meta PUT over it starts anew.
func TestDeleteUndelete(t *testing.T) {
	e := newEnv(t)
	cli := "/source/devel:tools/pocket-cli"
	e.run(t, []scenario{
		{"bob may not delete", req("DELETE", cli, asBob, ""), code(403, "delete_package_no_permission")},
		{"delete", req("DELETE", cli+"?comment=bye", asAlice, ""), ok},
		{"gone from the list", req("GET", "/source/devel:tools", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<directory count="4">`}, Excludes: []string{"pocket-cli"}}},
		{"listed as deleted", req("GET", "/source/devel:tools?deleted=1", asBob, ""), apitest.Expect{Status: 200,
			Exact: "<directory count=\"1\">\n  <entry name=\"pocket-cli\"></entry>\n</directory>\n"}},
		{"files gone", req("GET", cli, asBob, ""), code(404, "unknown_package")},
		{"meta gone", req("GET", cli+"/_meta", asBob, ""), code(404, "unknown_package")},
		{"delete again", req("DELETE", cli, asAlice, ""), code(404, "unknown_package")},
		{"bob may not undelete", req("POST", cli+"?cmd=undelete", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"undelete a never-deleted package", req("POST", "/source/devel:tools/nope?cmd=undelete", asAlice, ""), code(404, "unknown_package")},
		{"undelete in a missing project", req("POST", "/source/nope/x?cmd=undelete", asAlice, ""), code(404, "unknown_project")},
		{"undelete", req("POST", cli+"?cmd=undelete&comment=back", asAlice, ""), ok},
		{"undelete an existing package", req("POST", cli+"?cmd=undelete", asAlice, ""), code(400, "package_exists")},
		{"history kept, restore appended", req("GET", cli+"/_history", asBob, ""), want(200, `<revision rev="1" vrev="1">`,
			`<revision rev="4" vrev="2">`, "<comment>back</comment>")},
		{"same tree as rev 3", req("GET", cli+"?rev=4", asBob, ""), want(200, `<entry name="pocket-cli-1.1.0.tar.gz"`)},
		{"no longer deleted", req("GET", "/source/devel:tools?deleted=1", asBob, ""), want(200, `<directory count="0">`)},
		{"delete once more", req("DELETE", cli, asAlice, ""), ok},
		{"created again by meta", req("PUT", cli+"/_meta", asAlice, `<package name="pocket-cli"><title>New</title><description/></package>`), ok},
		{"a fresh history", req("GET", cli, asBob, ""), apitest.Expect{Status: 200,
			Exact: "<directory name=\"pocket-cli\" srcmd5=\"" + buildstore.EmptySrcMD5 + "\"></directory>\n"}},
		{"tombstone gone", req("GET", "/source/devel:tools?deleted=1", asBob, ""), want(200, `<directory count="0">`)},
	})
}

// TestUploadRevision: PUT ?rev=upload several times, a plain GET shows the pending tree,
// cmd=commit commits it over the newest tree, cmd=deleteuploadrev discards one.
func TestUploadRevision(t *testing.T) {
	e := newEnv(t)
	x := "/source/home:alice/x"
	e.run(t, []scenario{
		{"create package x", req("PUT", x+"/_meta", asAlice, pkgMeta), ok},
		{"a first commit", req("PUT", x+"/base.txt", asAlice, "base\n"), want(200, `<revision rev="1"`)},
		{"bob may not upload", req("PUT", x+"/f?rev=upload", asBob, "x"), code(403, "put_file_no_permission")},
		{"upload one", req("PUT", x+"/x.spec?rev=upload", asAlice, "Name: x\nVersion: 2.0\n"), ok},
		{"upload two", req("PUT", x+"/hello.txt?rev=upload", asAlice, "hello\n"), ok},
		{"plain GET prefers the upload", req("GET", x, asAlice, ""), want(200, `<directory name="x" rev="upload" srcmd5="upload">`,
			`<entry name="base.txt"`, `<entry name="hello.txt" md5="`+helloMD5+`" size="6"`, `<entry name="x.spec"`)},
		{"rev=latest does not", req("GET", x+"?rev=latest", asAlice, ""), apitest.Expect{Status: 200,
			Contains: []string{`rev="1"`}, Excludes: []string{"hello.txt"}}},
		{"an uploaded file", req("GET", x+"/hello.txt?rev=upload", asAlice, ""), apitest.Expect{Status: 200, Exact: "hello\n"}},
		{"not in latest", req("GET", x+"/hello.txt", asAlice, ""), code(404, "404")},
		{"bob may not commit", req("POST", x+"?cmd=commit", asBob, ""), code(403, "put_file_no_permission")},
		{"commit with a bad rev", req("POST", x+"?cmd=commit&rev=3", asAlice, ""), code(400, "invalid_revision")},
		{"commit", req("POST", x+"?cmd=commit&comment=uploaded", asAlice, ""), want(200, `<directory name="x" rev="2" vrev="1" srcmd5="`,
			`<entry name="base.txt"`, `<entry name="hello.txt"`, `<entry name="x.spec"`)},
		{"history", req("GET", x+"/_history?rev=2", asAlice, ""), want(200, "<comment>uploaded</comment>", "<version>2.0</version>")},
		{"no upload left", req("GET", x+"?rev=upload", asAlice, ""), code(404, "404", "no such revision")},
		{"upload another", req("PUT", x+"/junk?rev=upload", asAlice, "junk"), ok},
		{"discard it", req("POST", x+"?cmd=deleteuploadrev", asAlice, ""), ok},
		{"plain GET: latest again", req("GET", x, asAlice, ""), apitest.Expect{Status: 200,
			Contains: []string{`rev="2"`}, Excludes: []string{"junk"}}},
	})
}

// TestCopyPackage: cmd=copy commits the source's files (at orev) into the target, creating a
// missing target for a maintainer of its project.
func TestCopyPackage(t *testing.T) {
	e := newEnv(t)
	cp := "/source/home:alice/cli-copy"
	e.run(t, []scenario{
		{"missing source", req("POST", cp+"?cmd=copy&oproject=devel:tools&opackage=nope", asAlice, ""), code(404, "unknown_package")},
		{"bad orev", req("POST", cp+"?cmd=copy&oproject=devel:tools&opackage=pocket-cli&orev=9", asAlice, ""), code(404, "404")},
		{"bob may not create in home:alice", req("POST", cp+"?cmd=copy&oproject=devel:tools&opackage=pocket-cli", asBob, ""),
			code(403, "create_package_no_permission")},
		{"copy rev 1, creating the target", req("POST", cp+"?cmd=copy&oproject=devel:tools&opackage=pocket-cli&orev=1&comment=copied", asAlice, ""),
			want(200, `<directory name="cli-copy" rev="1" vrev="1"`, `<entry name="pocket-cli-1.0.0.tar.gz"`)},
		{"title from the source", req("GET", cp+"/_meta", asAlice, ""), want(200, "<title>The pocket command line</title>")},
		{"copy the newest", req("POST", cp+"?cmd=copy&oproject=devel:tools&opackage=pocket-cli", asAlice, ""),
			want(200, `rev="2"`, `<entry name="pocket-cli-1.1.0.tar.gz"`)},
		{"history", req("GET", cp+"/_history", asAlice, ""), want(200, "<comment>copied</comment>", "<user>alice</user>")},
		{"bob may not copy into devel:tools", req("POST", "/source/devel:tools/pocket-cli?cmd=copy&oproject=home:alice&opackage=cli-copy", asBob, ""),
			code(403, "cmd_execution_no_permission")},
	})
}

// TestSourceDiff: cmd=diff between revisions and packages, in the backend's text format.
func TestSourceDiff(t *testing.T) {
	e := newEnv(t)
	x := "/source/home:alice/x"
	sep := "===================================================================\n"
	e.run(t, []scenario{
		{"create package x", req("PUT", x+"/_meta", asAlice, pkgMeta), ok},
		{"r1", req("PUT", x+"/a.txt", asAlice, "1\n2\n3\n"), ok200},
		{"r2", req("PUT", x+"/a.txt", asAlice, "1\ntwo\n3\n"), ok200},
		{"r3", req("PUT", x+"/b.bin", asAlice, "\x00\x01"), ok200},
		{"r4", req("DELETE", x+"/a.txt", asAlice, ""), ok},
		{"rev 2 against rev 1", req("POST", x+"?cmd=diff&expand=1&orev=1&rev=2&unified=1&filelimit=0&tarlimit=0", asBob, ""), apitest.Expect{Status: 200,
			Exact:  "Index: a.txt\n" + sep + "--- a.txt (revision 1)\n+++ a.txt (revision 2)\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3\n",
			Header: map[string]string{"Content-Type": "text/plain; charset=utf-8"}}},
		{"rev 1: everything added", req("POST", x+"?cmd=diff&rev=1", asBob, ""), apitest.Expect{Status: 200,
			Exact: "Index: a.txt\n" + sep + "--- a.txt (added)\n+++ a.txt (revision 1)\n@@ -0,0 +1,3 @@\n+1\n+2\n+3\n"}},
		{"binary added", req("POST", x+"?cmd=diff&rev=3", asBob, ""), apitest.Expect{Status: 200,
			Exact: "Index: b.bin\n" + sep + "--- b.bin (added)\n+++ b.bin (revision 3)\nBinary file differs\n"}},
		{"latest: a deleted", req("POST", x+"?cmd=diff", asBob, ""), apitest.Expect{Status: 200,
			Exact: "Index: a.txt\n" + sep + "--- a.txt (revision 3)\n+++ a.txt (deleted)\n@@ -1,3 +0,0 @@\n-1\n-two\n-3\n"}},
		{"no change", req("POST", x+"?cmd=diff&rev=2&orev=2", asBob, ""), apitest.Expect{Status: 200, Exact: ""}},
		{"another package", req("POST", "/source/devel:tools/forge-utils?cmd=diff&oproject=home:alice&opackage=x", asBob, ""),
			want(200, "--- b.bin (revision 4)\n+++ b.bin (deleted)\n")},
		{"missing other package", req("POST", x+"?cmd=diff&oproject=home:alice&opackage=nope", asBob, ""), code(404, "unknown_package")},
		{"bad rev", req("POST", x+"?cmd=diff&rev=9", asBob, ""), code(404, "404")},
		{"view=xml", req("POST", x+"?cmd=diff&orev=1&rev=3&view=xml", asBob, ""), want(200, `<sourcediff key="`,
			`<old project="home:alice" package="x" rev="1" srcmd5="`, `<new project="home:alice" package="x" rev="3" srcmd5="`,
			`<file state="changed">`, `<old name="a.txt" md5="`, `<diff lines="5">@@ -1,3 +1,3 @@`+"\n 1\n-2\n+two\n 3\n</diff>",
			`<file state="added">`, `<new name="b.bin" md5="`, `<diff binary="1" lines="1">Binary file differs`)},
		{"view=xml, deleted", req("POST", x+"?cmd=diff&view=xml", asBob, ""), want(200, `<file state="deleted">`, `<old name="a.txt"`)},
		{"view=xml, no change", req("POST", x+"?cmd=diff&rev=2&orev=2&view=xml", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{"<files></files>"}, Excludes: []string{"<issues>", "<file "}}},
		{"unknown view", req("POST", x+"?cmd=diff&view=html", asBob, ""), code(400, "400")},
		{"y", req("PUT", "/source/home:alice/y/_meta", asAlice, `<package name="y"><title/><description/></package>`), ok},
		{"y r1", req("PUT", "/source/home:alice/y/y.changes", asAlice, "- fix pocket#12 and pocket#13\n"), ok200},
		{"y r2", req("PUT", "/source/home:alice/y/y.changes", asAlice, "- fix pocket#12 and pocket#34\n"), ok200},
		{"withissues", req("POST", "/source/home:alice/y?cmd=diff&view=xml&withissues=1", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<old name="y.changes"`, `<diff lines="3">@@ -1 +1 @@` + "\n-- fix pocket#12 and pocket#13\n",
				// 12's line changed, 13 is gone, 34 is new
				`<issue state="changed" tracker="pocket" name="12" label="pocket#12" url="https://issues.pocketforge.test/12"></issue>`,
				`<issue state="deleted" tracker="pocket" name="13" label="pocket#13" url="https://issues.pocketforge.test/13"></issue>`,
				`<issue state="added" tracker="pocket" name="34" label="pocket#34" url="https://issues.pocketforge.test/34"></issue>`}}},
		{"an unchanged mention is not listed", req("PUT", "/source/home:alice/y/y.changes", asAlice, "- fix pocket#12 and pocket#34\n- more\n"), ok200},
		{"withissues, kept", req("POST", "/source/home:alice/y?cmd=diff&view=xml&withissues=1", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{"<issues></issues>"}, Excludes: []string{"<issue "}}},
		{"onlyissues", req("POST", "/source/home:alice/y?cmd=diff&view=xml&onlyissues=1&rev=2", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<issue state="added" tracker="pocket" name="34"`}, Excludes: []string{"<files>", "<file "}}},
		{"without withissues no issues", req("POST", "/source/home:alice/y?cmd=diff&view=xml", asBob, ""), apitest.Expect{Status: 200,
			Excludes: []string{"<issues>"}}},
	})
}

var ok200 = apitest.Expect{Status: 200}

// TestServiceCommands: runservice, waitservice, mergeservice and servicediff, with the backend's
// 404 for a package without services and the update permission they need.
func TestServiceCommands(t *testing.T) {
	e := newEnv(t)
	x := "/source/home:alice/svc"
	service := `<services><service name="obs_scm"><param name="url">https://src.pocketforge.test/pool/x</param></service></services>`
	e.run(t, []scenario{
		{"create", req("PUT", x+"/_meta", asAlice, `<package name="svc"><title/><description/></package>`), ok},
		{"a spec", req("PUT", x+"/svc.spec", asAlice, "Name: svc\n"), ok200},
		{"runservice without _service", req("POST", x+"?cmd=runservice", asAlice, ""), failsWith(404, "404", "no source service defined!")},
		{"waitservice without _service", req("POST", x+"?cmd=waitservice", asAlice, ""), failsWith(404, "404", "no source service defined!")},
		{"mergeservice without _service", req("POST", x+"?cmd=mergeservice", asAlice, ""), failsWith(404, "404", "no source service defined!")},
		{"servicediff without _service", req("POST", x+"?cmd=servicediff", asAlice, ""), failsWith(404, "404", "no source service defined!")},
		{"the _service file", req("PUT", x+"/_service", asAlice, service), ok200},
		{"runservice", req("POST", x+"?cmd=runservice", asAlice, ""), want(200, `<status code="ok">`)},
		{"a new revision", req("GET", x+"/_history", asBob, ""), want(200, `<revision rev="3" vrev="3">`, "<comment>trigger service run</comment>")},
		{"runservice with a comment", req("POST", x+"?cmd=runservice&comment=again", asAlice, ""), ok},
		{"its comment", req("GET", x+"/_history?rev=4", asBob, ""), want(200, "<comment>again</comment>")},
		{"bob may not run them", req("POST", x+"?cmd=runservice", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"bob may wait", req("POST", x+"?cmd=waitservice", asBob, ""), want(200, `<status code="ok">`)},
		{"nothing generated", req("POST", x+"?cmd=servicediff", asBob, ""), apitest.Expect{Status: 200, Exact: ""}},
		{"bob may not merge", req("POST", x+"?cmd=mergeservice", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"mergeservice", req("POST", x+"?cmd=mergeservice", asAlice, ""), want(200, `<status code="ok">`)},
		{"_service dropped", req("GET", x, asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<entry name="svc.spec"`}, Excludes: []string{`name="_service"`}}},
		{"merged: no services left", req("POST", x+"?cmd=runservice", asAlice, ""), failsWith(404, "404", "no source service defined!")},
		{"a missing package", req("POST", "/source/home:alice/nope?cmd=runservice", asAlice, ""), code(404, "unknown_package")},
	})
}
