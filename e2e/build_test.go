package e2e

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
	run, dir := oscIn(t, url, user, password)
	return func(args ...string) (int, string) { return run(dir, args...) }
}

// oscIn is oscFor with the working directory chosen per call (checkouts, osc ci in one), and
// the directory it made for the oscrc, a place to run osc in when nothing else matters.
func oscIn(t *testing.T, url, user, password string) (func(dir string, args ...string) (int, string), string) {
	t.Helper()
	run, dir := oscWithInput(t, url, user, password)
	return func(wd string, args ...string) (int, string) { return run(wd, "", args...) }, dir
}

// oscWithInput is oscIn whose commands also read stdin (the answers to osc's prompts; empty:
// none, osc reads end of file).
func oscWithInput(t *testing.T, url, user, password string) (func(dir, stdin string, args ...string) (int, string), string) {
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
	return func(wd, stdin string, args ...string) (int, string) {
		cmd := exec.Command(osc, append([]string{"-A", url}, args...)...)
		cmd.Env = oscEnv(dir)
		cmd.Dir = wd
		if stdin != "" {
			cmd.Stdin = strings.NewReader(stdin)
		}
		return runChild(t, cmd, 60*time.Second, fmt.Sprintf("osc %v", args))
	}, dir
}

// oscEnv is the environment osc runs in: the oscrc in dir, and dir as its home, cache and
// configuration directory.
func oscEnv(dir string) []string {
	return append(cleanEnv(dir, "OSC_CONFIG="+filepath.Join(dir, "oscrc"), "XDG_CACHE_HOME="+dir, "XDG_CONFIG_HOME="+dir), "EDITOR=true")
}

// TestOscPeopleAndInstance: the real osc against the built binary — the 401 challenge and
// Basic credentials, the session cookie, /about, /architectures, whois.
func TestOscPeopleAndInstance(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
		{"ls /", []string{"ls", "/"}, []string{"Pocket:1.0\ndevel:libs\ndevel:tools\nhome:alice\nhome:alice:branches:devel:tools\nhome:bob\nhome:bob:forks\n"}},
		{"ls devel:tools", []string{"ls", "devel:tools"}, []string{"forge-build\nforge-changelog\nforge-utils\npocket-cli\npocket-lint\n"}},
		{"ls Pocket:1.0", []string{"ls", "Pocket:1.0"}, []string{"pocket-base\npocket-cli\npocket-filesystem\npocket-release\npocket-repos\n"}},
		{"ls devel:libs", []string{"ls", "devel:libs"}, []string{"libforge\nlibpocket\nlibpocket-json\n"}},
		{"ls alice's branch project", []string{"ls", "home:alice:branches:devel:tools"}, []string{"forge-utils\n"}},
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

// TestOscCheckoutCommit: osc co, add, ci, log, up, cat and ls -l against the built binary, as
// alice on the demo package devel:tools/pocket-cli (three demo revisions).
func TestOscCheckoutCommit(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	osc, _ := oscIn(t, p.url, "alice", "alice-password")
	first, second := t.TempDir(), t.TempDir()
	must := func(dir string, args []string, want ...string) string {
		t.Helper()
		code, out := osc(dir, args...)
		if code != 0 {
			t.Fatalf("osc %v: exit %d\n%s", args, code, out)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Fatalf("osc %v: output lacks %q:\n%s", args, w, out)
			}
		}
		return out
	}
	must(first, []string{"co", "devel:tools", "pocket-cli"}, "At revision 3.", "pocket-cli/pocket-cli.spec")
	must(second, []string{"co", "devel:tools", "pocket-cli"}, "At revision 3.")
	wc := filepath.Join(first, "devel:tools", "pocket-cli")
	spec := filepath.Join(wc, "pocket-cli.spec")
	body, err := os.ReadFile(spec)
	if err != nil || !strings.Contains(string(body), "Version:        1.1.0\n") {
		t.Fatalf("checked-out spec: %v\n%s", err, body)
	}
	edited := strings.Replace(string(body), "1.1.0", "1.2.0", 1)
	if err := os.WriteFile(spec, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wc, "NOTES"), []byte("new in 1.2.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	must(wc, []string{"add", "NOTES"}, "A    NOTES")
	must(wc, []string{"ci", "-m", "Update to 1.2.0 with notes"}, "Committed revision 4.")
	must(wc, []string{"status"})
	must(wc, []string{"log", "devel:tools", "pocket-cli"}, "r4 | alice", "Update to 1.2.0 with notes", "r1 | alice", "Initial import of pocket-cli 1.0.0")
	must(filepath.Join(second, "devel:tools", "pocket-cli"), []string{"up"}, "At revision 4.", "NOTES")
	got, err := os.ReadFile(filepath.Join(second, "devel:tools", "pocket-cli", "pocket-cli.spec"))
	if err != nil || string(got) != edited {
		t.Fatalf("spec after osc up: %v\n%s", err, got)
	}
	// The output also holds osc's "SSL certificate checks disabled" warning (stderr), before the file.
	if out := must(first, []string{"cat", "devel:tools", "pocket-cli", "NOTES"}); !strings.HasSuffix(out, "\n\nnew in 1.2.0\n") {
		t.Fatalf("osc cat: %q", out)
	}
	must(first, []string{"ls", "-l", "devel:tools", "pocket-cli"}, "NOTES\n", "pocket-cli.spec\n", "pocket-cli-1.1.0.tar.gz\n")
	must(first, []string{"ls", "devel:tools", "pocket-cli"}, "NOTES\npocket-cli-1.1.0.tar.gz\npocket-cli.changes\npocket-cli.spec\n")
	oscCommitRefused(t, p.url)
}

// oscCommitRefused: bob is not a maintainer of devel:tools, so his commit is refused and osc
// prints the service's reason.
func oscCommitRefused(t *testing.T, url string) {
	bob, _ := oscIn(t, url, "bob", "bob-password")
	bobDir := t.TempDir()
	if code, out := bob(bobDir, "co", "devel:tools", "pocket-cli"); code != 0 {
		t.Fatalf("bob's checkout: exit %d\n%s", code, out)
	}
	bobWC := filepath.Join(bobDir, "devel:tools", "pocket-cli")
	if err := os.WriteFile(filepath.Join(bobWC, "NOTES"), []byte("bob was here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := bob(bobWC, "ci", "-m", "sneaky"); code == 0 || !strings.Contains(out, "no permission to change the sources") {
		t.Fatalf("bob's commit: exit %d\n%s", code, out)
	}
}

// TestOscCopyDiffDelete: osc copypac, rdiff, rdelete, ls -D and undelete against the built
// binary, as alice on the demo package devel:tools/pocket-cli.
func TestOscCopyDiffDelete(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	osc := oscFor(t, p.url, "alice", "alice-password")
	steps := []struct {
		name string
		args []string
		want []string
	}{
		{"copypac", []string{"copypac", "devel:tools", "pocket-cli", "home:alice", "cli-copy"}, nil},
		{"ls the copy", []string{"ls", "home:alice", "cli-copy"}, []string{"pocket-cli-1.1.0.tar.gz\npocket-cli.changes\npocket-cli.spec\n"}},
		{"rdiff -r 2:3", []string{"rdiff", "devel:tools", "pocket-cli", "-r", "2:3"}, []string{"Index: pocket-cli.spec\n" + strings.Repeat("=", 67) + "\n",
			"--- pocket-cli.spec (revision 2)\n+++ pocket-cli.spec (revision 3)\n", "-Version:        1.0.0\n+Version:        1.1.0\n",
			"--- pocket-cli-1.0.0.tar.gz (revision 2)\n+++ pocket-cli-1.0.0.tar.gz (deleted)\n"}},
		{"rdiff two packages", []string{"rdiff", "devel:tools", "pocket-cli", "home:alice", "cli-copy"}, nil},
		{"rdelete", []string{"rdelete", "-m", "bye", "home:alice", "cli-copy"}, nil},
		{"ls -D", []string{"ls", "-D", "home:alice"}, []string{"cli-copy\n"}},
		{"undelete", []string{"undelete", "-m", "back", "home:alice", "cli-copy"}, nil},
		{"ls home:alice", []string{"ls", "home:alice"}, []string{"cli-copy\n"}},
		{"log shows the restore", []string{"log", "home:alice", "cli-copy"}, []string{"r2 | alice", "back"}},
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
	if code, out := osc("rdiff", "devel:tools", "pocket-cli", "home:alice", "cli-copy"); code != 0 || strings.Contains(out, "Index:") {
		t.Fatalf("rdiff of identical packages: exit %d\n%s", code, out)
	}
}

// TestOscLockFlagsConfig: osc lock (GET+PUT _meta), unlock -m (cmd=unlock), meta prjconf read
// and -F write, against the built binary as alice on her home project.
func TestOscLockFlagsConfig(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	osc := oscFor(t, p.url, "alice", "alice-password")
	conf := filepath.Join(t.TempDir(), "prjconf")
	if err := os.WriteFile(conf, []byte("Macros:\n%pocket 1\n:Macros\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		args []string
		want []string
	}{
		{"prjconf empty", []string{"meta", "prjconf", "home:alice"}, nil},
		{"prjconf -F", []string{"meta", "prjconf", "home:alice", "-F", conf}, nil},
		{"prjconf read back", []string{"meta", "prjconf", "home:alice"}, []string{"Macros:\n%pocket 1\n:Macros"}},
		{"lock", []string{"lock", "home:alice"}, nil},
		{"meta shows the lock", []string{"meta", "prj", "home:alice"}, []string{"<lock>", "<enable"}},
		{"unlock", []string{"unlock", "-m", "done", "home:alice"}, nil},
		{"meta lost the lock", []string{"meta", "prj", "home:alice"}, []string{`<project name="home:alice">`}},
	}
	for _, s := range steps {
		code, out := osc(s.args...)
		if code != 0 {
			t.Fatalf("%s: osc %v: exit %d\n%s", s.name, s.args, code, out)
		}
		for _, w := range s.want {
			if !strings.Contains(out, w) {
				t.Fatalf("%s: osc %v: output lacks %q:\n%s", s.name, s.args, w, out)
			}
		}
		if s.name == "meta lost the lock" && strings.Contains(out, "<lock>") {
			t.Fatalf("still locked:\n%s", out)
		}
	}
	osc("lock", "home:alice")
	if code, out := osc("meta", "prjconf", "home:alice", "-F", conf); code == 0 || !strings.Contains(out, "locked") {
		t.Fatalf("prjconf on a locked project: exit %d\n%s", code, out)
	}
}
