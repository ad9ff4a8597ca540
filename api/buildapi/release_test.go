package buildapi

import (
	"slices"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

const (
	updMeta = `<project name="home:alice:upd"><title>Updates</title><description/>
<build><disable/></build>
<repository name="update"><arch>x86_64</arch></repository></project>`
	relMeta = `<project name="home:alice:rel"><title>Rel</title><description/>
<repository name="standard"><releasetarget project="home:alice:upd" repository="update" trigger="manual"/><arch>x86_64</arch></repository>
<repository name="other"><arch>x86_64</arch></repository></project>`
)

// TestReleaseTargetMeta: a repository's <releasetarget/> is kept and shown; an unknown target
// repository or trigger is refused.
func TestReleaseTargetMeta(t *testing.T) {
	e := newEnv(t)
	e.run(t, []scenario{
		{"target project", req("PUT", "/source/home:alice:upd/_meta", asAlice, updMeta), ok},
		{"source project", req("PUT", "/source/home:alice:rel/_meta", asAlice, relMeta), ok},
		{"shown", req("GET", "/source/home:alice:rel/_meta", asBob, ""), want(200,
			`<repository name="standard">`+"\n"+`    <releasetarget project="home:alice:upd" repository="update" trigger="manual"></releasetarget>`)},
		{"unknown target repository", req("PUT", "/source/home:alice:rel/_meta", asAlice,
			`<project name="home:alice:rel"><title/><description/><repository name="standard"><releasetarget project="home:alice:upd" repository="nope"/></repository></project>`),
			code(400, "project_save_error", "Unknown target repository 'home:alice:upd/nope'")},
		{"unknown trigger", req("PUT", "/source/home:alice:rel/_meta", asAlice,
			`<project name="home:alice:rel"><title/><description/><repository name="standard"><releasetarget project="home:alice:upd" repository="update" trigger="often"/></repository></project>`),
			code(400, "validation_failed", "trigger")},
	})
}

// TestRelease: cmd=release on a package and a project, and its refusals.
func TestRelease(t *testing.T) {
	e := newEnv(t)
	rel, upd := "/source/home:alice:rel", "/source/home:alice:upd"
	e.run(t, []scenario{
		{"target project", req("PUT", upd+"/_meta", asAlice, updMeta), ok},
		{"source project", req("PUT", rel+"/_meta", asAlice, relMeta), ok},
		{"package", req("PUT", rel+"/x/_meta", asAlice, `<package name="x"><title>X</title><description/></package>`), ok},
		{"spec", req("PUT", rel+"/x/x.spec", asAlice, "Name: x\nVersion: 1.0\n"), ok200},
	})
	w := buildstore.Where{Project: "home:alice:rel", Repository: "standard", Arch: "x86_64"}
	if err := e.db.Write(func(tx kv.Tx) error {
		return buildstore.PutBinary(tx, w, buildstore.Binary{Package: "x", Filename: "x-1.0-1.1.x86_64.rpm", Name: "x",
			Version: "1.0", Release: "1.1", Arch: "x86_64", Size: 3}, []byte("rpm"))
	}); err != nil {
		t.Fatal(err)
	}
	e.run(t, []scenario{
		{"without credentials", req("POST", rel+"/x?cmd=release", nil, ""), apitest.Expect{Status: 401}},
		{"bob may not write the target", req("POST", rel+"/x?cmd=release", asBob, ""), code(403, "cmd_execution_no_permission", "no permission to write in project home:alice:upd")},
		{"unknown package", req("POST", rel+"/nope?cmd=release", asAlice, ""), code(404, "unknown_package")},
		{"unknown project", req("POST", "/source/nope/x?cmd=release", asAlice, ""), code(404, "unknown_project")},
		{"unknown repository", req("POST", rel+"/x?cmd=release&repository=nope", asAlice, ""), code(404, "unknown_repository")},
		{"no release target in that repository", req("POST", rel+"/x?cmd=release&repository=other", asAlice, ""), code(404, "no_matching_release_target", "No defined or matching release target")},
		{"target_project needs the repositories", req("POST", rel+"/x?cmd=release&target_project=home:alice:upd", asAlice, ""), code(400, "missing_parameter")},
		{"unknown target project", req("POST", rel+"/x?cmd=release&repository=standard&target_project=nope&target_repository=update", asAlice, ""), code(404, "unknown_project")},
		{"unknown target repository", req("POST", rel+"/x?cmd=release&repository=standard&target_project=home:alice:upd&target_repository=nope", asAlice, ""), code(404, "unknown_repository")},
		{"bad setrelease", req("POST", rel+"/x?cmd=release&setrelease=a/b", asAlice, ""), code(400, "invalid_parameter")},
		{"release", req("POST", rel+"/x?cmd=release", asAlice, ""), ok},
		{"sources released", req("GET", upd+"/x/x.spec", asBob, ""), want(200, "Name: x")},
		{"history", req("GET", upd+"/x/_history", asBob, ""), want(200, "<comment>Release from home:alice:rel / x</comment>")},
	})
	e.binaries(t, "home:alice:upd", "x", "x-1.0-1.1.x86_64.rpm")
	e.run(t, []scenario{
		{"project release with setrelease", req("POST", rel+"?cmd=release&setrelease=5", asAlice, ""), ok},
	})
	e.binaries(t, "home:alice:upd", "x", "x-1.0-5.x86_64.rpm")
	e.run(t, []scenario{
		{"project release by bob", req("POST", rel+"?cmd=release", asBob, ""), code(403, "cmd_execution_no_permission")},
		{"a project without release targets", req("POST", upd+"?cmd=release", asAlice, ""), code(404, "no_matching_release_target")},
		{"project release to a named target", req("POST", rel+"?cmd=release&repository=other&targetproject=home:alice:upd&targetrepository=update", asAlice, ""), ok},
		{"lock the target", req("POST", upd+"?cmd=lock", asAlice, ""), ok},
		{"into a locked target", req("POST", rel+"/x?cmd=release", asAlice, ""), locked403},
	})
}

// binaries checks the file names of pkg's binaries in project's repository update, x86_64
// (the binary routes are another part of the farm's API).
func (e *env) binaries(t *testing.T, project, pkg string, want ...string) {
	t.Helper()
	var got []string
	e.db.View(func(tx kv.Tx) error {
		bins, _ := buildstore.Binaries(tx, buildstore.Where{Project: project, Repository: "update", Arch: "x86_64"}, pkg)
		for _, b := range bins {
			got = append(got, b.Filename)
		}
		return nil
	})
	if !slices.Equal(got, want) {
		t.Errorf("binaries of %s/%s: %v, want %v", project, pkg, got, want)
	}
}
