package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOscBranchCommitMerge: osc branch, co of the branch (expanded link), ci in it (keeplink),
// ls, rdiff and cat of the link, then a change in the branched package reaching the branch by
// osc up (the 3-way merge), and a conflicting change turning the link into a broken one —
// against the built binary, bob branching alice's devel:tools/pocket-cli.
func TestOscBranchCommitMerge(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	bob, _ := oscIn(t, p.url, "bob", "bob-password")
	alice, _ := oscIn(t, p.url, "alice", "alice-password")
	const branch = "home:bob:branches:devel:tools"
	must := func(run func(string, ...string) (int, string), dir string, args []string, want ...string) string {
		t.Helper()
		code, out := run(dir, args...)
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
	dir := t.TempDir()
	must(bob, dir, []string{"branch", "devel:tools", "pocket-cli"}, branch)
	if code, out := bob(dir, "branch", "devel:tools", "pocket-cli"); code == 0 && !strings.Contains(out, "already exists") {
		t.Fatalf("a second branch: exit %d\n%s", code, out)
	}
	must(bob, dir, []string{"meta", "prj", branch}, `<path project="devel:tools" repository=`, `<person userid="bob" role="maintainer"`)
	must(bob, dir, []string{"co", branch, "pocket-cli"}, "At revision ")
	wc := filepath.Join(dir, branch, "pocket-cli")
	if _, err := os.Stat(filepath.Join(wc, "_link")); err == nil {
		t.Fatal("the checkout is not expanded: _link is in the working copy")
	}
	spec := filepath.Join(wc, "pocket-cli.spec")
	body, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	mine := strings.Replace(string(body), "%build\n", "%build\n# bob: verbose build\n", 1)
	if mine == string(body) {
		t.Fatalf("the demo spec has no %%build section:\n%s", body)
	}
	if err := os.WriteFile(spec, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	must(bob, wc, []string{"ci", "-m", "verbose build"}, "Committed revision 2.")
	must(bob, wc, []string{"status"})
	must(bob, dir, []string{"ls", branch, "pocket-cli"}, "pocket-cli.spec")
	must(bob, dir, []string{"api", "/source/" + branch + "/pocket-cli"}, `<linkinfo project="devel:tools" package="pocket-cli"`, `xsrcmd5="`, `name="_link"`)
	must(bob, dir, []string{"rdiff", "devel:tools", "pocket-cli", branch, "pocket-cli"}, "+# bob: verbose build\n")
	must(bob, dir, []string{"cat", branch, "pocket-cli", "pocket-cli.spec"}, "# bob: verbose build\n")
	must(bob, dir, []string{"api", "-X", "POST", "/source/devel:tools/pocket-cli?cmd=showlinked"}, `<package project="`+branch+`" name="pocket-cli">`)

	// alice changes another file of the branched package: bob's osc up merges it in.
	adir := t.TempDir()
	must(alice, adir, []string{"co", "devel:tools", "pocket-cli"})
	awc := filepath.Join(adir, "devel:tools", "pocket-cli")
	changes := filepath.Join(awc, "pocket-cli.changes")
	old, err := os.ReadFile(changes)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(changes, append([]byte("- alice: upstream note\n"), old...), 0o644); err != nil {
		t.Fatal(err)
	}
	must(alice, awc, []string{"ci", "-m", "note"}, "Committed revision")
	must(bob, wc, []string{"up"}, "pocket-cli.changes")
	got, _ := os.ReadFile(filepath.Join(wc, "pocket-cli.changes"))
	gotSpec, _ := os.ReadFile(spec)
	if !strings.HasPrefix(string(got), "- alice: upstream note\n") || string(gotSpec) != mine {
		t.Fatalf("after osc up: changes %q…, spec kept: %v", string(got)[:min(len(got), 40)], string(gotSpec) == mine)
	}

	// alice edits the very line bob changed: the link no longer expands, and says why.
	aspec := filepath.Join(awc, "pocket-cli.spec")
	ab, _ := os.ReadFile(aspec)
	if err := os.WriteFile(aspec, []byte(strings.Replace(string(ab), "%build\n", "%build\n# alice: quiet build\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	must(alice, awc, []string{"ci", "-m", "quiet"}, "Committed revision")
	must(bob, dir, []string{"api", "/source/" + branch + "/pocket-cli"}, `error="conflict in file pocket-cli.spec"`)
	if code, out := bob(dir, "cat", branch, "pocket-cli", "pocket-cli.spec"); code == 0 || !strings.Contains(out, "conflict in file pocket-cli.spec") {
		t.Fatalf("cat of a broken link: exit %d\n%s", code, out)
	}
}
