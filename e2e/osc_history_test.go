package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOscMetaLogAndIssueDiff (issue 37): osc log --meta on a demo package shows its meta history,
// and osc rdiff --issues-only lists the issues a commit's .changes adds and drops (the
// <sourcediff> of cmd=diff&view=xml&onlyissues=1), as OBS's backend answers them.
func TestOscMetaLogAndIssueDiff(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	alice := newOscSession(t, p.url, "alice", "alice-password")

	if out := alice.must("log", "--meta", "devel:tools", "pocket-cli"); !strings.Contains(out, "r1 | alice") {
		t.Errorf("osc log --meta devel:tools pocket-cli:\n%s", out)
	}
	if out := alice.must("api", "/source/devel:tools/pocket-cli/_meta?rev=1"); !strings.Contains(out, `<package name="pocket-cli" project="devel:tools">`) {
		t.Errorf("_meta?rev=1:\n%s", out)
	}

	const prj, pkg = "home:alice", "issues-demo"
	alice.must("meta", "pkg", "-F", alice.write("k.xml", `<package name="issues-demo" project="home:alice"><title/><description/></package>`), prj, pkg)
	alice.must("api", "-X", "PUT", "-f", alice.write("c1", "- fix pocket#12 and pocket#13\n"), "/source/"+prj+"/"+pkg+"/"+pkg+".changes")
	alice.must("api", "-X", "PUT", "-f", alice.write("c2", "- fix pocket#12 and pocket#34\n"), "/source/"+prj+"/"+pkg+"/"+pkg+".changes")
	out := alice.must("rdiff", "--issues-only", prj, pkg)
	for _, want := range []string{"pocket#12", "pocket#13", "pocket#34"} {
		if !strings.Contains(out, want) {
			t.Errorf("osc rdiff --issues-only lacks %s:\n%s", want, out)
		}
	}
}

// TestOscServices (issue 37): osc service remoterun, wait and merge on a package with a _service
// file — each answers ok, the run commits a revision, the merge drops _service — and remoterun on
// one without services prints the backend's refusal.
func TestOscServices(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	alice := newOscSession(t, p.url, "alice", "alice-password")
	const prj, pkg = "home:alice", "svc-demo"
	alice.must("meta", "pkg", "-F", alice.write("k.xml", `<package name="svc-demo" project="home:alice"><title/><description/></package>`), prj, pkg)
	alice.must("api", "-X", "PUT", "-f", alice.write("s.spec", "Name: svc-demo\n"), "/source/"+prj+"/"+pkg+"/svc-demo.spec")
	if code, out := alice.osc("service", "remoterun", prj, pkg); code == 0 || !strings.Contains(out, "no source service defined!") {
		t.Errorf("remoterun without a _service file: exit %d\n%s", code, out)
	}
	alice.must("api", "-X", "PUT", "-f", alice.write("svc.xml", `<services><service name="obs_scm"/></services>`), "/source/"+prj+"/"+pkg+"/_service")
	for _, cmd := range []string{"remoterun", "wait", "merge"} {
		if out := alice.must("service", cmd, prj, pkg); lastLine(out) != "ok" {
			t.Errorf("osc service %s: %q", cmd, out)
		}
	}
	log := alice.must("log", prj, pkg)
	if !strings.Contains(log, "trigger service run") || !strings.Contains(log, "merge service files") {
		t.Errorf("osc log after run and merge:\n%s", log)
	}
	if ls := alice.must("ls", prj, pkg); strings.Contains(ls, "_service") || !strings.Contains(ls, "svc-demo.spec") {
		t.Errorf("osc ls after the merge:\n%s", ls)
	}
}
