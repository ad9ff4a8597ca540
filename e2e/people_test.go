package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOscAccounts: the real osc changes a password (osc api -X POST -d) and signs in with the
// new one, and lists, creates and deletes tokens with osc token.
func TestOscAccounts(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	alice := oscFor(t, p.url, "alice", "alice-password")
	if code, out := alice("api", "-X", "POST", "-d", "fresh-password", "/person/alice?cmd=change_password"); code != 0 || !strings.Contains(out, `<status code="ok">`) {
		t.Fatalf("change_password: exit %d\n%s", code, out)
	}
	if code, out := oscFor(t, p.url, "alice", "alice-password")("api", "/about"); code == 0 || !strings.Contains(out, "401") {
		t.Fatalf("the old password still signs in: exit %d\n%s", code, out)
	}
	alice = oscFor(t, p.url, "alice", "fresh-password")
	code, out := alice("token", "--create")
	id := regexp.MustCompile(`<data name="id">(\d+)</data>`).FindStringSubmatch(out)
	if code != 0 || !strings.Contains(out, `<data name="token">`) || id == nil {
		t.Fatalf("token --create: exit %d\n%s", code, out)
	}
	if code, out := alice("token"); code != 0 || !strings.Contains(out, `id="`+id[1]+`"`) || !strings.Contains(out, `kind="runservice"`) {
		t.Fatalf("token: exit %d\n%s", code, out)
	}
	if code, out := alice("token", "--delete", id[1]); code != 0 || !strings.Contains(out, "Delete token") {
		t.Fatalf("token --delete: exit %d\n%s", code, out)
	}
	if code, out := alice("token"); code != 0 || !strings.Contains(out, `<directory count="0"`) {
		t.Fatalf("token after delete: exit %d\n%s", code, out)
	}
	if code, out := alice("token", "--delete", id[1]); code == 0 || !strings.Contains(out, "404") {
		t.Fatalf("token --delete again: exit %d\n%s", code, out)
	}
}
