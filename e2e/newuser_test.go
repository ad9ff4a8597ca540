package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStartWaitsForTheWholeBanner runs a stand-in that prints the banner's first line, pauses,
// then the rest (as a loaded machine may deliver it): start must still see the token, which it
// missed when it looked once, at the first line.
func TestStartWaitsForTheWholeBanner(t *testing.T) {
	t.Parallel()
	token := strings.Repeat("ab", 32)
	script := filepath.Join(t.TempDir(), "slow-banner")
	os.WriteFile(script, []byte(`#!/bin/sh
echo "pocketforge dev listening on http://127.0.0.1:9 (data: x.db)"
sleep 0.3
echo "demo credentials:"
echo "  bootstrap token (Authorization: Bearer … for /_appliance): `+token+`   (generated now, shown once, stored hashed)"
echo "  build service user Admin, password: pw   (generated now, shown once, stored hashed)"
exec sleep 30
`), 0o755)
	p := startIn(t, script, "")
	if p.token != token || p.url != "http://127.0.0.1:9" {
		t.Fatalf("start read url %q token %q", p.url, p.token)
	}
}

// TestFirstRunLeavesGitClean starts pocketforge as `go run .` does, with the default data file
// in the current directory, and checks that everything it writes there is in .gitignore, so
// `git status` in a checkout stays clean.
func TestFirstRunLeavesGitClean(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	p := startIn(t, binPath, dir)
	p.waitReady(t)
	if code, body := request(t, "GET", p.url+"/_appliance/snapshot", p.token, nil); code != 200 || body == "" {
		t.Fatalf("snapshot: %d", code)
	}
	p.stop(t, syscall.SIGTERM)
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		t.Fatalf("nothing written in %s: %v", dir, err)
	}
	root, _ := filepath.Abs("..")
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			name += "/"
		}
		cmd := exec.Command("git", "check-ignore", "-q", "--no-index", name)
		cmd.Dir = root
		if code, out := runChild(t, cmd, time.Minute, "git check-ignore"); code != 0 {
			t.Errorf("%s, written beside the default data file, is not in .gitignore (exit %d %s)", name, code, out)
		}
	}
}
