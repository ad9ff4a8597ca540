package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOscMaintainer: the real osc's owner lookups (osc maintainer BINARY, -A, -U, -G, -B, -e;
// osc bugowner BINARY) go through /search/owner from the demo world's root project
// Pocket:1.0 (OBS:OwnerRootProject). Pocket:1.0's pocket-cli is developed in devel:tools, whose
// maintainer alice answers for it; nobody is its bugowner until alice names bob in the devel
// package's meta.
func TestOscMaintainer(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	alice := newOscSession(t, p.url, "alice", "alice-password")
	bob := newOscSession(t, p.url, "bob", "bob-password")
	has := func(what, out string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", what, w, out)
			}
		}
	}

	has("osc maintainer pocket-cli", bob.must("maintainer", "pocket-cli"),
		"Defined in project:  devel:tools", "maintainer of pocket-cli : \n   alice")
	has("osc maintainer -A pocket-cli", bob.must("maintainer", "-A", "pocket-cli"), "devel:tools", "alice")
	has("osc maintainer pocket-base", bob.must("maintainer", "pocket-base"),
		"Defined in package: Pocket:1.0/pocket-base", "maintainer of pocket-base : \n   alice")
	has("osc maintainer -U alice", bob.must("maintainer", "-U", "alice"),
		"Defined in package: Pocket:1.0/pocket-base", "Defined in package: Pocket:1.0/pocket-release")
	has("osc maintainer -G pocket-reviewers -r reviewer", bob.must("maintainer", "-G", "pocket-reviewers", "-r", "reviewer"),
		"Defined in package: Pocket:1.0/pocket-base")

	// Nobody is pocket-cli's bugowner: the search answers nothing, and osc then reads the
	// binary's name as a project, which does not exist — OBS's osc exits 1 the same way.
	if code, out := bob.osc("bugowner", "pocket-cli"); code == 0 {
		t.Errorf("osc bugowner pocket-cli without a bugowner: exit 0\n%s", out)
	}
	alice.must("meta", "pkg", "-F", alice.write("cli.xml", `<package name="pocket-cli" project="devel:tools"><title>The pocket command line</title>`+
		`<description>Talks to a pocketforge appliance.</description><person userid="bob" role="bugowner"/></package>`), "devel:tools", "pocket-cli")
	has("osc bugowner pocket-cli", bob.must("bugowner", "pocket-cli"),
		"Defined in package: devel:tools/pocket-cli", "bugowner of pocket-cli : \n   bob")
	has("osc maintainer -B pocket-cli", bob.must("maintainer", "-B", "pocket-cli"), "bugowner of pocket-cli : \n   bob")
	has("osc bugowner -e pocket-cli", bob.must("bugowner", "-e", "pocket-cli"), "bob@pocketforge.test")

	if code, out := bob.osc("maintainer", "no-such-binary"); code == 0 {
		t.Errorf("osc maintainer no-such-binary: exit 0\n%s", out)
	}
}
