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
