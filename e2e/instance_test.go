package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOscInstance: the real osc reads the configuration, the distributions and an issue's page.
func TestOscInstance(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	alice := oscFor(t, p.url, "alice", "alice-password")
	if code, out := alice("api", "/configuration"); code != 0 || !strings.Contains(out, "<arch>x86_64</arch>") || !strings.Contains(out, "<arch>aarch64</arch>") {
		t.Fatalf("configuration: exit %d\n%s", code, out)
	}
	if code, out := alice("api", "/distributions"); code != 0 || !strings.Contains(out, `<distribution id="pocket-1.0"`) || !strings.Contains(out, "<project>Pocket:1.0</project>") {
		t.Fatalf("distributions: exit %d\n%s", code, out)
	}
	code, out := alice("api", "/issue_trackers/show_url_for?issue=pocket%23123")
	// osc may print its insecure-connection warning first; the answer is the last line.
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || lines[len(lines)-1] != "https://issues.pocketforge.test/123" {
		t.Fatalf("show_url_for: exit %d\n%s", code, out)
	}
}
