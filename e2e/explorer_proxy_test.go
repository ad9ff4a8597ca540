package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOscThroughExplorerProxy: the real osc with the explorer's read-only build proxy as its
// API address (osc -A http://host/obs) reads what the demo world holds — ls, co, results,
// buildlog, cat, rdiff, buildinfo with a local spec — and every write fails with 405 and
// changes nothing. osc's own credentials never matter: the proxy signs in as the explorer
// person, so a project hidden from non-members is not there for anyone through it.
func TestOscThroughExplorerProxy(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword,
		"--bootstrap-token", e2eToken, "--dev-clock", "--explorer-rate", "0")
	p.waitReady(t)
	alice := newOscSession(t, p.url, "alice", "alice-password")
	alice.must("meta", "prj", "-F", alice.write("secret.xml", `<project name="home:alice:secret"><title>S</title><description/>`+
		`<person userid="alice" role="maintainer"/><access><disable/></access></project>`), "home:alice:secret")
	// osc is signed in as alice here, which the proxy ignores
	o := newOscSession(t, p.url+"/obs", "alice", "alice-password")

	t.Run("ls", func(t *testing.T) {
		out := o.must("ls")
		if !strings.Contains(out, "Pocket:1.0\n") || !strings.Contains(out, "devel:tools\n") || strings.Contains(out, "home:alice:secret") {
			t.Fatalf("project list:\n%s", out)
		}
		if out := o.must("ls", "Pocket:1.0"); !strings.Contains(out, "pocket-cli\n") {
			t.Fatalf("packages:\n%s", out)
		}
	})
	t.Run("cat", func(t *testing.T) {
		direct := alice.must("cat", "devel:tools", "pocket-cli", "pocket-cli.spec")
		if out := o.must("cat", "devel:tools", "pocket-cli", "pocket-cli.spec"); out != direct || !strings.Contains(out, "Name:") {
			t.Fatalf("through the proxy:\n%s\ndirect:\n%s", out, direct)
		}
	})
	t.Run("rdiff", func(t *testing.T) {
		if out := o.must("rdiff", "Pocket:1.0", "pocket-cli"); !strings.Contains(out, "Index: ") {
			t.Fatalf("rdiff:\n%s", out)
		}
	})
	wc := filepath.Join(o.dir, "Pocket:1.0", "pocket-cli")
	t.Run("co", func(t *testing.T) {
		o.must("co", "Pocket:1.0", "pocket-cli")
		if _, err := os.Stat(filepath.Join(wc, "pocket-cli.spec")); err != nil {
			t.Fatal(err)
		}
		code, out := o.run(wc, "buildinfo", "standard", "x86_64", "pocket-cli.spec") // a POST with the spec
		if code != 0 || !strings.Contains(out, `<buildinfo project="Pocket:1.0"`) {
			t.Fatalf("buildinfo: exit %d\n%s", code, out)
		}
	})
	t.Run("results and buildlog", func(t *testing.T) {
		var out string
		for i := 0; i < 60; i++ {
			if out = o.must("results", "Pocket:1.0", "pocket-base"); strings.Count(out, "succeeded") == 2 {
				break
			}
			request(t, "POST", p.url+"/_appliance/clock", e2eToken, strings.NewReader(`{"advance":"20s"}`))
			time.Sleep(500 * time.Millisecond)
		}
		if !strings.Contains(out, "standard") || strings.Count(out, "succeeded") != 2 {
			t.Fatalf("results:\n%s", out)
		}
		if log := o.must("remotebuildlog", "Pocket:1.0", "pocket-base", "standard", "x86_64"); !strings.Contains(log, `finished "build pocket-base.spec"`) {
			t.Fatalf("build log:\n%s", log)
		}
	})
	t.Run("writes fail with 405", func(t *testing.T) {
		if code, out := o.osc("rdelete", "-m", "gone", "Pocket:1.0", "pocket-cli"); code == 0 || !strings.Contains(out, "405") {
			t.Fatalf("rdelete: exit %d\n%s", code, out)
		}
		if err := os.WriteFile(filepath.Join(wc, "pocket-cli.changes"), []byte("changed\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out := o.run(wc, "ci", "-m", "through the proxy"); code == 0 || !strings.Contains(out, "405") {
			t.Fatalf("ci: exit %d\n%s", code, out)
		}
		if code, out := o.osc("meta", "prj", "-F", o.write("mine.xml", `<project name="home:alice:mine"><title/><description/></project>`), "home:alice:mine"); code == 0 || !strings.Contains(out, "405") {
			t.Fatalf("meta prj: exit %d\n%s", code, out)
		}
		if out := alice.must("ls", "Pocket:1.0"); !strings.Contains(out, "pocket-cli\n") {
			t.Fatalf("a refused delete deleted:\n%s", out)
		}
		if out := alice.must("cat", "Pocket:1.0", "pocket-cli", "pocket-cli.changes"); strings.Contains(out, "changed") {
			t.Fatal("a refused commit committed")
		}
	})
	t.Run("a restricted project is not there", func(t *testing.T) {
		if code, out := o.osc("ls", "home:alice:secret"); !strings.Contains(out, "404") && code == 0 {
			t.Fatalf("ls of a restricted project: exit %d\n%s", code, out)
		}
		if out := alice.must("ls", "home:alice:secret"); strings.Contains(out, "404") {
			t.Fatalf("alice cannot see her own project directly:\n%s", out)
		}
	})
}
