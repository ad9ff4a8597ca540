package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOscReleaseAndMaintenance: the real osc against the built binary — osc release into a
// manual release target (and its refusals), osc createincident below a maintenance project,
// osc patchinfo creating and updating a _patchinfo, and osc sm / osc mbranch branching the
// demo world's OBS:Maintained package.
func TestOscReleaseAndMaintenance(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	aliceIn, _ := oscIn(t, p.url, "alice", "alice-password")
	alice := oscFor(t, p.url, "alice", "alice-password")
	bob := oscFor(t, p.url, "bob", "bob-password")
	admin := oscFor(t, p.url, "Admin", e2eAdminPassword)
	files := t.TempDir()
	file := func(name, body string) string {
		path := filepath.Join(files, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	upd := file("upd.xml", `<project name="home:alice:upd"><title>Updates</title><description/><build><disable/></build>
<repository name="update"><arch>x86_64</arch></repository></project>`)
	rel := file("rel.xml", `<project name="home:alice:rel"><title>Rel</title><description/>
<repository name="standard"><releasetarget project="home:alice:upd" repository="update" trigger="manual"/><arch>x86_64</arch></repository></project>`)
	pkg := file("x.xml", `<package name="x" project="home:alice:rel"><title>X</title><description/></package>`)
	maint := file("maint.xml", `<project name="Maint" kind="maintenance"><title>Maintenance</title><description/><person userid="alice" role="maintainer"/></project>`)
	type step struct {
		name string
		osc  func(args ...string) (int, string)
		args []string
		fail bool     // osc exits non-zero
		want []string // in the output
	}
	incidentDir, updateDir := t.TempDir(), t.TempDir()
	inDir := func(dir string) func(args ...string) (int, string) {
		return func(args ...string) (int, string) { return aliceIn(dir, args...) }
	}
	steps := []step{
		{"target project", alice, []string{"meta", "prj", "home:alice:upd", "-F", upd}, false, nil},
		{"source project", alice, []string{"meta", "prj", "home:alice:rel", "-F", rel}, false, nil},
		{"release target shown", alice, []string{"meta", "prj", "home:alice:rel"}, false, []string{`<releasetarget project="home:alice:upd" repository="update" trigger="manual"`}},
		{"package", alice, []string{"meta", "pkg", "home:alice:rel", "x", "-F", pkg}, false, nil},
		{"spec", alice, []string{"api", "-X", "PUT", "-d", "Name: x\nVersion: 1.0\n", "/source/home:alice:rel/x/x.spec"}, false, nil},
		{"bob may not release into alice's project", bob, []string{"release", "home:alice:rel", "x"}, true, []string{"no permission to write in project home:alice:upd"}},
		{"release", alice, []string{"release", "home:alice:rel", "x"}, false, []string{`<status code="ok">`}},
		{"released sources", alice, []string{"cat", "home:alice:upd", "x", "x.spec"}, false, []string{"Name: x"}},
		{"project release with a release tag", alice, []string{"release", "--set-release=3", "home:alice:rel"}, false, []string{`<status code="ok">`}},
		{"no release target", alice, []string{"release", "home:alice:upd"}, true, []string{"No defined or matching release target"}},
		{"maintenance project", admin, []string{"meta", "prj", "Maint", "-F", maint}, false, nil},
		{"createincident", alice, []string{"createincident", "Maint"}, false, []string{"Incident project created:  Maint:0"}},
		{"the incident", alice, []string{"meta", "prj", "Maint:0"}, false, []string{`kind="maintenance_incident"`}},
		{"bob may not", bob, []string{"createincident", "Maint"}, true, []string{"no permission"}},
		{"patchinfo", inDir(incidentDir), []string{"patchinfo", "Maint:0"}, false, []string{"Creating new patchinfo"}},
		{"the _patchinfo", alice, []string{"cat", "Maint:0", "patchinfo", "_patchinfo"}, false, []string{`<patchinfo incident="0">`, "<packager>alice</packager>"}},
		{"patchinfo again updates", inDir(updateDir), []string{"patchinfo", "Maint:0"}, false, []string{"Update existing _patchinfo file"}},
		{"sm lists the maintained packages", bob, []string{"sm", "pocket-cli"}, false, []string{"devel:tools/pocket-cli"}},
		{"mbranch", bob, []string{"mbranch", "pocket-cli"}, false, []string{"co home:bob:branches:OBS_Maintained:pocket-cli"}},
		{"the maintenance branch", bob, []string{"ls", "home:bob:branches:OBS_Maintained:pocket-cli"}, false, []string{"pocket-cli.devel_tools"}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			code, out := s.osc(s.args...)
			if (code != 0) != s.fail {
				t.Fatalf("osc %v: exit %d\n%s", s.args, code, out)
			}
			for _, w := range s.want {
				if !strings.Contains(out, w) {
					t.Fatalf("osc %v: output lacks %q:\n%s", s.args, w, out)
				}
			}
		})
	}
}
