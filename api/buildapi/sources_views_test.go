package buildapi

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// TestSourceViews: view=info (plain, parse=1, a link, a project) and view=cpio.
func TestSourceViews(t *testing.T) {
	e := newEnv(t)
	x := "/source/home:alice/x"
	spec := "Name: x\nVersion: 1.5\nRelease: 3\n\n%description\nX.\n\n%package devel\nSummary: dev\n%package -n libx1\nSummary: lib\n"
	e.run(t, []scenario{
		{"create", req("PUT", x+"/_meta", asAlice, pkgMeta), ok},
		{"no spec yet", req("GET", x+"?view=info", asBob, ""), want(200, `<sourceinfo package="x" srcmd5="d41d8cd98f00b204e9800998ecf8427e"`, "<error>no specfile</error>")},
		{"spec", req("PUT", x+"/x.spec", asAlice, spec), ok200},
		{"hello", req("PUT", x+"/hello.txt", asAlice, "hello\n"), ok200},
		{"info", req("GET", x+"?view=info", asBob, ""), apitest.Expect{Status: 200, Contains: []string{`<sourceinfo package="x" rev="2" vrev="2"`, "<filename>x.spec</filename>"},
			Excludes: []string{"<version>"}}},
		{"info, parsed", req("GET", x+"?view=info&parse=1", asBob, ""), want(200, "<name>x</name>", "<version>1.5</version>", "<release>3</release>",
			"<subpacks>x</subpacks>", "<subpacks>x-devel</subpacks>", "<subpacks>libx1</subpacks>")},
		{"info of rev 1", req("GET", x+"?view=info&rev=1", asBob, ""), want(200, `rev="1"`)},
		{"unknown view", req("GET", x+"?view=frob", asBob, ""), code(400, "400")},
		{"extension=spec", req("GET", x+"?extension=spec", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<directory name="x" rev="2"`, `<entry name="x.spec"`}, Excludes: []string{"hello.txt"}}},
		{"extension=txt of rev 2", req("GET", x+"?extension=txt&rev=2", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<entry name="hello.txt"`}, Excludes: []string{"x.spec"}}},
		{"extension matching nothing", req("GET", x+"?extension=tar.gz", asBob, ""), apitest.Expect{Status: 200,
			Contains: []string{`<directory name="x" rev="2"`}, Excludes: []string{"<entry"}}},
		{"extension with a slash", req("GET", x+"?extension=a/b", asBob, ""), code(400, "invalid_parameter")},
		{"link", req("PUT", "/source/home:alice/y/_meta", asAlice, `<package name="y"><title/><description/></package>`), ok},
		{"its _link", req("PUT", "/source/home:alice/y/_link", asAlice, `<link package="x"/>`), ok200},
		{"info of a link", req("GET", "/source/home:alice/y?view=info", asBob, ""), want(200, `lsrcmd5="`, `<linked project="home:alice" package="x">`, "<filename>x.spec</filename>")},
	})
	got := apitest.Do(t, e.app, req("GET", x+"?view=cpio", asBob, ""))
	if got.Status != 200 {
		t.Fatalf("cpio: %d %s", got.Status, got.Body)
	}
	files := readCpio(t, []byte(got.Body))
	if files["hello.txt"] != "hello\n" || files["x.spec"] != spec || len(files) != 2 {
		t.Fatalf("cpio: %q", files)
	}
}

// readCpio parses a newc archive into name → content.
func readCpio(t *testing.T, data []byte) map[string]string {
	t.Helper()
	out := map[string]string{}
	align := func(n int) int { return (n + 3) &^ 3 }
	for pos := 0; ; {
		if pos+110 > len(data) || string(data[pos:pos+6]) != "070701" {
			t.Fatalf("bad cpio header at %d", pos)
		}
		field := func(i int) int {
			n, err := strconv.ParseUint(string(data[pos+6+8*i:pos+14+8*i]), 16, 32)
			if err != nil {
				t.Fatal(err)
			}
			return int(n)
		}
		size, nameLen := field(6), field(11)
		name := strings.TrimSuffix(string(data[pos+110:pos+110+nameLen]), "\x00")
		body := align(pos + 110 + nameLen)
		if name == "TRAILER!!!" {
			return out
		}
		out[name] = string(data[body : body+size])
		pos = align(body + size)
	}
}

// TestMorePackageCommands: linkdiff, createSpecFileTemplate and the build-farm refusals.
func TestMorePackageCommands(t *testing.T) {
	e := newEnv(t)
	x, y := "/source/home:alice/x", "/source/home:alice/y"
	e.run(t, []scenario{
		{"create x", req("PUT", x+"/_meta", asAlice, pkgMeta), ok},
		{"template", req("POST", x+"?cmd=createSpecFileTemplate", asAlice, ""), ok},
		{"the template", req("GET", x+"/x.spec", asBob, ""), want(200, "Name:           x\n", "%changelog\n")},
		{"template twice", req("POST", x+"?cmd=createSpecFileTemplate", asAlice, ""), code(400, "spec_file_exists", "SPEC file already exists.")},
		{"template by bob", req("POST", x+"?cmd=createSpecFileTemplate", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"create y", req("PUT", y+"/_meta", asAlice, `<package name="y"><title/><description/></package>`), ok},
		{"y links to x, deleting nothing, adding a file", req("PUT", y+"/_link", asAlice, `<link package="x"/>`), ok200},
		{"y's own file", req("PUT", y+"/NOTES", asAlice, "notes\n"), ok200},
		{"linkdiff", req("POST", y+"?cmd=linkdiff", asBob, ""), apitest.Expect{Status: 200, Contains: []string{"--- NOTES (added)\n", "+notes\n"}, Excludes: []string{"x.spec"}}},
		{"linkdiff of a plain package", req("POST", x+"?cmd=linkdiff", asBob, ""), apitest.Expect{Status: 200, Exact: ""}},
		{"rebuild runs on the farm", req("POST", x+"?cmd=rebuild", asAlice, ""), ok},
		{"release without a release target", req("POST", x+"?cmd=release", asAlice, ""), code(404, "no_matching_release_target")},
		{"but permission comes first", req("POST", x+"?cmd=wipe", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"and the package", req("POST", "/source/home:alice/nope?cmd=wipe", asAlice, ""), code(404, "unknown_package")},
		{"unknown command", req("POST", x+"?cmd=frobnicate", asAlice, ""), code(400, "illegal_request", "unsupported POST command frobnicate")},
	})
}

// TestMetaHistory: each meta write is a meta revision; _history?meta=1, ?meta=1 and
// _meta?rev=N read them.
func TestMetaHistory(t *testing.T) {
	e := newEnv(t)
	x := "/source/home:alice/x"
	e.run(t, []scenario{
		{"create", req("PUT", x+"/_meta?comment=first", asAlice, pkgMeta), ok},
		{"retitle", req("PUT", x+"/_meta", asAlice, strings.Replace(pkgMeta, "<title>X</title>", "<title>Better</title>", 1)), ok},
		{"meta history", req("GET", x+"/_history?meta=1", asBob, ""), want(200, `<revision rev="1" vrev="1">`, "<comment>first</comment>", `<revision rev="2" vrev="2">`, "<user>alice</user>")},
		{"meta listing", req("GET", x+"?meta=1", asBob, ""), want(200, `<directory name="x" rev="2" vrev="2"`, `<entry name="_meta"`)},
		{"meta listing of rev 1", req("GET", x+"?meta=1&rev=1", asBob, ""), want(200, `rev="1"`)},
		{"the first meta", req("GET", x+"/_meta?rev=1", asBob, ""), want(200, "<title>X</title>")},
		{"the current one", req("GET", x+"/_meta", asBob, ""), want(200, "<title>Better</title>")},
		{"no such meta revision", req("GET", x+"/_meta?rev=9", asBob, ""), code(404, "404", "no such revision")},
		{"source history unaffected", req("GET", x+"/_history", asBob, ""), apitest.Expect{Status: 200, Exact: "<revisionlist></revisionlist>\n"}},
	})
}
