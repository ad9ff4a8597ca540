package buildapi

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestProjectMove (issue 37): POST /source/<new>?cmd=move&oproject=<old> moves a project that
// has built — packages with their histories, metas, attributes, comments, signing key, build
// results — under the new name, as OBS does: Admin's only, to a free name, refused while a job
// of the project is scheduled or building; other projects' paths, links and devel packages
// follow it, every package's meta history says so, the farm republishes the tree under the new
// name, and the old name is free again.
func TestProjectMove(t *testing.T) {
	w := newBinWorld(t)
	asBob := basic("bob", "bob-password")
	ok := apitest.Expect{Status: 200, Contains: []string{`<status code="ok"`}}
	has := func(s ...string) apitest.Expect { return apitest.Expect{Status: 200, Contains: s} }
	const moved = "binworld:moved"

	// Things that must move along: a key, an attribute, a comment, a link inside, and from
	// outside a project building against it, a link to it and a package developed in it.
	w.must(t, "POST", "/source/binworld?cmd=createkey", asAdmin, "")
	key := apitest.Do(t, w.app, req("GET", "/source/binworld/_pubkey", asBob, "")).Body
	w.must(t, "POST", "/source/binworld/hello/_attribute", asAdmin, attrs("OBS:Maintained"))
	w.must(t, "POST", "/comments/package/binworld/hello", asAlice, "a comment on hello")
	w.must(t, "PUT", "/source/binworld/hellolink/_meta", asAdmin, `<package name="hellolink" project="binworld"><title/><description/></package>`)
	w.must(t, "PUT", "/source/binworld/hellolink/_link", asAdmin, `<link package="hello"/>`)
	w.must(t, "PUT", "/source/home:alice:user/_meta", asAdmin, `<project name="home:alice:user"><title/><description/><person userid="alice" role="maintainer"/>`+
		`<repository name="standard"><path project="binworld" repository="standard"/><arch>x86_64</arch></repository></project>`)
	w.must(t, "PUT", "/source/home:alice:user/fork/_meta", asAdmin, `<package name="fork" project="home:alice:user"><title/><description/><devel project="binworld" package="hello"/></package>`)
	w.must(t, "PUT", "/source/home:alice:user/fork/_link", asAdmin, `<link project="binworld" package="hello"/>`)
	history := apitest.Do(t, w.app, req("GET", "/source/binworld/hello/_history", asBob, "")).Body
	revs := strings.Count(history, "<revision ")

	// A source change schedules hello again: no move while the job waits or runs.
	w.must(t, "PUT", "/source/binworld/hello/notes.txt", asAdmin, "new notes\n")
	w.tick(t)
	w.run(t, []scenario{
		{"not Admin", req("POST", "/source/"+moved+"?cmd=move&oproject=binworld", asAlice, ""), code(403, "cmd_execution_no_permission", "STOP SCHEDULER BEFORE")},
		{"no oproject", req("POST", "/source/"+moved+"?cmd=move", asAdmin, ""), code(400, "missing_parameter")},
		{"target exists", req("POST", "/source/home:alice?cmd=move&oproject=binworld", asAdmin, ""), code(400, "project_exists", "Target project exists already.")},
		{"onto itself", req("POST", "/source/binworld?cmd=move&oproject=binworld", asAdmin, ""), code(400, "project_exists")},
		{"unknown origin", req("POST", "/source/"+moved+"?cmd=move&oproject=nope", asAdmin, ""), code(404, "unknown_project")},
		{"bad name", req("POST", "/source/_bad?cmd=move&oproject=binworld", asAdmin, ""), code(400, "invalid_project_name")},
		{"a job is scheduled", req("POST", "/source/"+moved+"?cmd=move&oproject=binworld", asAdmin, ""), code(400, "move_failed", "Move operation failed", "scheduled or building")},
		{"nothing moved", req("GET", "/source/binworld/_meta", asBob, ""), has(`<project name="binworld">`)},
	})
	for range 6 {
		w.clk.Advance(11 * time.Second)
		w.tick(t)
	}
	w.run(t, []scenario{
		{"move", req("POST", "/source/"+moved+"?cmd=move&oproject=binworld", asAdmin, ""), ok},
		{"the old name is gone", req("GET", "/source/binworld/_meta", asBob, ""), code(404, "unknown_project")},
		{"its results too", req("GET", "/build/binworld/_result", asBob, ""), code(404, "unknown_project")},
		{"the meta", req("GET", "/source/"+moved+"/_meta", asBob, ""), has(`<project name="binworld:moved">`, `<title>Bin world</title>`, `<person userid="alice" role="maintainer"></person>`)},
		{"the packages", req("GET", "/source/"+moved, asBob, ""), has(`<entry name="hello"></entry>`, `<entry name="libfoo"></entry>`, `<entry name="hellolink"></entry>`)},
		{"a package's meta", req("GET", "/source/"+moved+"/hello/_meta", asBob, ""), has(`<package name="hello" project="binworld:moved">`)},
		{"the meta history says so", req("GET", "/source/"+moved+"/hello/_history?meta=1", asBob, ""), has("<comment>Project move from binworld to binworld:moved</comment>")},
		{"the sources", req("GET", "/source/"+moved+"/hello/notes.txt", asBob, ""), has("new notes")},
		{"the link inside expands", req("GET", "/source/"+moved+"/hellolink?expand=1", asBob, ""), has(`<entry name="hello.spec"`)},
		{"the key", req("GET", "/source/"+moved+"/_pubkey", asBob, ""), apitest.Expect{Status: 200, Contains: []string{key}}},
		{"the attribute", req("GET", "/source/"+moved+"/hello/_attribute", asBob, ""), has(`<attribute name="Maintained" namespace="OBS"`)},
		{"the comment", req("GET", "/comments/package/"+moved+"/hello", asBob, ""), has("a comment on hello")},
		{"the binaries", req("GET", "/build/"+moved+"/standard/x86_64/libfoo", asBob, ""), has("libfoo-1.0-1.1.x86_64.rpm")},
		{"the results", req("GET", "/build/"+moved+"/_result?package=libfoo", asBob, ""), has(`code="succeeded"`)},
		{"the build history", req("GET", "/build/"+moved+"/standard/x86_64/libfoo/_history", asBob, ""), has("<entry ")},
		{"a path to it follows", req("GET", "/source/home:alice:user/_meta", asBob, ""), has(`<path project="binworld:moved" repository="standard"></path>`)},
		{"a devel package follows", req("GET", "/source/home:alice:user/fork/_meta", asBob, ""), has(`<devel project="binworld:moved" package="hello"></devel>`)},
		{"the link index follows", req("POST", "/source/"+moved+"/hello?cmd=showlinked", asBob, ""), has(`project="binworld:moved" name="hellolink"`)},
		{"a _link file keeps its text", req("GET", "/source/home:alice:user/fork/_link", asBob, ""), has(`project="binworld"`)},
		{"the old name is free", req("PUT", "/source/binworld/_meta", asAdmin, `<project name="binworld"><title>New</title><description/></project>`), ok},
		{"and empty", req("GET", "/source/binworld", asBob, ""), apitest.Expect{Status: 200, Excludes: []string{"hello"}}},
		{"a custom comment", req("POST", "/source/binworld:again?cmd=move&oproject=binworld&comment=renamed", asAdmin, ""), ok},
	})
	if got := strings.Count(apitest.Do(t, w.app, req("GET", "/source/"+moved+"/hello/_history", asBob, "")).Body, "<revision "); got != revs+1 {
		t.Errorf("hello's history has %d revisions after the move; want %d (the %d before and notes.txt)", got, revs+1, revs)
	}
	// The farm republishes the tree under the new name. (hello, which builds against libfoo,
	// rebuilds once first: its dependencies' paths name the project, as OBS's build meta does.)
	for range 3 {
		w.clk.Advance(11 * time.Second)
		w.tick(t)
	}
	w.run(t, []scenario{
		{"published anew", req("GET", "/published/"+moved+"/standard/x86_64", asBob, ""), has("libfoo-1.0-1.1.x86_64.rpm", "hello-1.0-")},
		{"the old tree is gone", req("GET", "/published/binworld:again/standard", asBob, ""), apitest.Expect{Status: 404}},
	})
}

// TestProjectMoveLeavesNothingBehind (issue 37): after devel:tools — the demo world's richest
// project: packages with histories and links both ways, metas, attributes, comments, tags,
// messages, ratings, download counters, issues, roles, tokens, build results — is moved, no
// record of the build service is still keyed by its old name, and no record names it, but for
// what keeps names on the real service too: requests (they store names), the text of files
// (blobs, logs, published files) and the link expansions other projects' packages made through
// a _link naming it.
func TestProjectMoveLeavesNothingBehind(t *testing.T) {
	w := newBinWorld(t)
	for range 12 { // let the demo world's own builds finish
		w.clk.Advance(time.Minute)
		w.tick(t)
	}
	w.must(t, "POST", "/source/devel:tools:moved?cmd=move&oproject=devel:tools", asAdmin, "")
	const old = "devel:tools"
	keep := map[string]bool{
		store.BuildRequests: true, store.BuildRequestIndex: true,
		store.BuildBlobs: true, store.BuildFarmFiles: true, store.BuildFarmLogs: true, store.BuildFarmPublished: true,
	}
	quoted := []byte(`"` + old + `"`)
	err := w.db.View(func(tx kv.Tx) error {
		return tx.ForEach(func(name []byte, b kv.Bucket) error {
			bucket := string(name)
			if !strings.HasPrefix(bucket, "build/") || keep[bucket] {
				return nil
			}
			return b.ForEach(func(k, v []byte) error {
				for _, part := range bytes.Split(k, []byte{0}) {
					if string(part) == old {
						t.Errorf("%s: key %q still holds %s", bucket, k, old)
						return nil
					}
				}
				if bytes.Contains(v, quoted) && !(bucket == store.BuildExpansions && !bytes.HasPrefix(k, []byte("devel:tools:moved\x00"))) {
					t.Errorf("%s: the record of %q still names %s: %.200s", bucket, k, old, v)
				}
				return nil
			})
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}
