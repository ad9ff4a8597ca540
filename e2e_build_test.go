package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const e2eAdminPassword = "e2e-admin-password"

// oscFor writes an oscrc for the appliance at url (the build notes' non-interactive form) and
// returns a function that runs osc with it and reports its exit code and output.
func oscFor(t *testing.T, url, user, password string) func(args ...string) (int, string) {
	t.Helper()
	osc, err := exec.LookPath("osc")
	if err != nil {
		t.Skip("osc is not installed (CI installs it: apt-get install -y osc)")
	}
	dir := t.TempDir()
	rc := filepath.Join(dir, "oscrc")
	conf := fmt.Sprintf("[general]\napiurl = %s\nuse_keyring = 0\ngnome_keyring = 0\ncookiejar = %s\n\n[%s]\nuser = %s\npass = %s\ncredentials_mgr_class = osc.credentials.PlaintextConfigFileCredentialsManager\n",
		url, filepath.Join(dir, "cookiejar"), url, user, password)
	if err := os.WriteFile(rc, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return func(args ...string) (int, string) {
		cmd := exec.Command(osc, append([]string{"-A", url}, args...)...)
		cmd.Env = append(cleanEnv("OSC_CONFIG="+rc, "XDG_CACHE_HOME="+dir, "XDG_CONFIG_HOME="+dir), "EDITOR=true")
		cmd.Dir = dir
		done := make(chan struct{})
		var out []byte
		go func() { out, _ = cmd.CombinedOutput(); close(done) }()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("osc %v hung", args)
		}
		return cmd.ProcessState.ExitCode(), string(out)
	}
}

// TestOscPeopleAndInstance: the real osc against the built binary — the 401 challenge and
// Basic credentials, the session cookie, /about, /architectures, whois.
func TestOscPeopleAndInstance(t *testing.T) {
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	osc := oscFor(t, p.url, "Admin", e2eAdminPassword)
	steps := []struct {
		name string
		args []string
		want []string
	}{
		{"about", []string{"api", "/about"}, []string{"<about>", "<revision>2.7</revision>"}},
		{"architectures", []string{"api", "/architectures"}, []string{`<entry name="x86_64"`, `<entry name="aarch64"`}},
		{"whois me", []string{"whois"}, []string{`Admin: "Build Service Administrator" <admin@pocketforge.test>`}},
		{"whois alice", []string{"whois", "alice"}, []string{`alice: "Alice Packager" <alice@pocketforge.test>`}},
		{"a group", []string{"api", "/group/pocket-reviewers"}, []string{`<person userid="carol"`}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			code, out := osc(s.args...)
			for _, w := range s.want {
				if code != 0 || !strings.Contains(out, w) {
					t.Fatalf("osc %v: exit %d, output lacks %q:\n%s", s.args, code, w, out)
				}
			}
		})
	}
	// osc reads the 404 <status> and says so itself (and exits 0: its own choice).
	if _, out := osc("whois", "nobody"); !strings.Contains(out, "user 'nobody' not found") {
		t.Fatalf("whois of an unknown person:\n%s", out)
	}
	wrong := oscFor(t, p.url, "Admin", "wrong-password")
	if code, out := wrong("api", "/about"); code == 0 || !strings.Contains(out, "401") {
		t.Fatalf("a wrong password: exit %d\n%s", code, out)
	}
}

// TestOscSources: osc ls, meta prj and meta pkg against the built binary — listings of the
// demo world, creating a subproject and a package from files, and a refused top-level create.
func TestOscSources(t *testing.T) {
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	osc := oscFor(t, p.url, "alice", "alice-password")
	dir := t.TempDir()
	write := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	prj := write("prj.xml", `<project name="home:alice:test"><title>Test</title><description/>
<repository name="standard"><path project="Pocket:1.0" repository="standard"/><arch>x86_64</arch></repository></project>`)
	pkg := write("pkg.xml", `<package name="hello" project="home:alice:test"><title>Hello</title><description>hi</description></package>`)
	top := write("top.xml", `<project name="alice-top"><title>T</title><description/></project>`)
	steps := []struct {
		name string
		args []string
		want []string
	}{
		{"ls /", []string{"ls", "/"}, []string{"Pocket:1.0\n", "devel:libs\n", "devel:tools\n", "home:alice\n", "home:bob\n"}},
		{"ls devel:tools", []string{"ls", "devel:tools"}, []string{"forge-utils\npocket-cli\n"}},
		{"meta prj home:alice", []string{"meta", "prj", "home:alice"}, []string{`<project name="home:alice">`, `<person userid="alice" role="maintainer"`}},
		{"create a subproject", []string{"meta", "prj", "home:alice:test", "-F", prj}, nil},
		{"ls / shows it", []string{"ls", "/"}, []string{"home:alice:test\n"}},
		{"create a package", []string{"meta", "pkg", "home:alice:test", "hello", "-F", pkg}, nil},
		{"meta pkg", []string{"meta", "pkg", "home:alice:test", "hello"}, []string{`<package name="hello" project="home:alice:test">`, "<title>Hello</title>"}},
		{"ls the subproject", []string{"ls", "home:alice:test"}, []string{"hello\n"}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			code, out := osc(s.args...)
			if code != 0 {
				t.Fatalf("osc %v: exit %d\n%s", s.args, code, out)
			}
			for _, w := range s.want {
				if !strings.Contains(out, w) {
					t.Fatalf("osc %v: output lacks %q:\n%s", s.args, w, out)
				}
			}
		})
	}
	code, out := osc("meta", "prj", "alice-top", "-F", top)
	if code == 0 || !strings.Contains(out, "403") || !strings.Contains(out, "only an administrator creates top-level projects") {
		t.Fatalf("a top-level create by alice: exit %d\n%s", code, out)
	}
	if code, out := osc("meta", "prj", "nope"); code == 0 || !strings.Contains(out, "Project not found: nope") {
		t.Fatalf("meta of an unknown project: exit %d\n%s", code, out)
	}
}
