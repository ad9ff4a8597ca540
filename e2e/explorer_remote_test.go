package e2e

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestExplorerWithRemoteBackend: a second appliance whose explorer reads the first one's build
// service over HTTP (--explorer-backend) — the real osc through its proxy reads what the first
// holds and cannot write, its build results are the first's, a project created on the first
// shows up within a poll, and a backend that went away is a quick 500, not a hang.
func TestExplorerWithRemoteBackend(t *testing.T) {
	t.Parallel()
	local := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword,
		"--bootstrap-token", e2eToken, "--dev-clock", "--explorer-rate", "0")
	local.waitReady(t)
	far := start(t, "--ephemeral", "--no-fixtures", "--explorer-rate", "0",
		"--explorer-backend", local.url, "--explorer-poll", "1s")
	far.waitReady(t)
	alice := newOscSession(t, local.url, "alice", "alice-password")
	alice.must("meta", "prj", "-F", alice.write("secret.xml", `<project name="home:alice:secret"><title>S</title><description/>`+
		`<person userid="alice" role="maintainer"/><access><disable/></access></project>`), "home:alice:secret")
	o := newOscSession(t, far.url+"/obs", "alice", "alice-password")

	t.Run("osc reads through the remote proxy", func(t *testing.T) {
		out := o.must("ls")
		if !strings.Contains(out, "Pocket:1.0\n") || strings.Contains(out, "home:alice:secret") {
			t.Fatalf("project list:\n%s", out)
		}
		direct := alice.must("cat", "devel:tools", "pocket-cli", "pocket-cli.spec")
		if out := o.must("cat", "devel:tools", "pocket-cli", "pocket-cli.spec"); out != direct {
			t.Fatalf("cat through the remote proxy:\n%s\ndirect:\n%s", out, direct)
		}
		if out := o.must("rdiff", "Pocket:1.0", "pocket-cli"); !strings.Contains(out, "Index: ") {
			t.Fatalf("rdiff:\n%s", out)
		}
		out = ""
		for i := 0; i < 60; i++ {
			if out = o.must("results", "Pocket:1.0", "pocket-base"); strings.Count(out, "succeeded") == 2 {
				break
			}
			request(t, "POST", local.url+"/_appliance/clock", e2eToken, strings.NewReader(`{"advance":"20s"}`))
			time.Sleep(500 * time.Millisecond)
		}
		if !strings.Contains(out, "standard") || strings.Count(out, "succeeded") != 2 {
			t.Fatalf("results:\n%s", out)
		}
		if log := o.must("remotebuildlog", "Pocket:1.0", "pocket-base", "standard", "x86_64"); !strings.Contains(log, `finished "build pocket-base.spec"`) {
			t.Fatalf("build log through the remote proxy:\n%s", log)
		}
		if code, out := o.osc("rdelete", "-m", "gone", "Pocket:1.0", "pocket-cli"); code == 0 || !strings.Contains(out, "405") {
			t.Fatalf("rdelete: exit %d\n%s", code, out)
		}
	})
	t.Run("build results are the backend's", func(t *testing.T) {
		var want, got string
		for i := 0; i < 40; i++ { // the far cache follows within a poll
			_, want = request(t, "GET", local.url+"/api/projects/Pocket:1.0/_result", "", nil)
			_, got = request(t, "GET", far.url+"/api/projects/Pocket:1.0/_result", "", nil)
			if got == want {
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
		if got != want || !strings.Contains(got, `<resultlist`) {
			t.Fatalf("remote:\n%s\nin process:\n%s", got, want)
		}
		if code, _ := request(t, "GET", far.url+"/api/projects/home:alice:secret/_result", "", nil); code != 404 {
			t.Errorf("a restricted project: %d", code)
		}
	})
	t.Run("a new project shows up within a poll", func(t *testing.T) {
		alice.must("meta", "prj", "-F", alice.write("late.xml", `<project name="home:alice:late"><title/><description/>`+
			`<person userid="alice" role="maintainer"/></project>`), "home:alice:late")
		code := 0
		for i := 0; i < 40 && code != 200; i++ {
			code, _ = request(t, "GET", far.url+"/api/projects/home:alice:late/_result", "", nil)
			time.Sleep(250 * time.Millisecond)
		}
		if code != 200 {
			t.Fatalf("home:alice:late is still %d on the far explorer", code)
		}
	})
	t.Run("a backend that went away", func(t *testing.T) {
		local.stop(t, syscall.SIGTERM)
		start := time.Now()
		code, body := request(t, "GET", far.url+"/api/backend-config", "", nil)
		if code != 500 || !strings.Contains(body, `"error":"The build service could not be reached`) {
			t.Fatalf("%d %s", code, body)
		}
		code, body = request(t, "GET", far.url+"/obs/source/Pocket:1.0/_meta", "", nil)
		if code != 500 || !strings.Contains(body, `<status code=`) {
			t.Fatalf("proxy: %d %s", code, body)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("took %s", took)
		}
	})
}
