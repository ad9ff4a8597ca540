package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOscSearch: the real osc's request and package lookups go through /search (build-notes
// §6, §8): co and ci look for open requests of the package, sr for an identical one, rq list
// and review list list through it, and rq accept asks which packages have the target as devel
// package and fails if that search fails. Bob branches alice's package, changes it and submits;
// carol reviews; alice accepts.
func TestOscSearch(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	alice := newOscSession(t, p.url, "alice", "alice-password")
	bob := newOscSession(t, p.url, "bob", "bob-password")
	carol := newOscSession(t, p.url, "carol", "carol-password")
	const prj, branch = "home:alice:srch", "home:bob:branches:home:alice:srch"
	alice.must("meta", "prj", "-F", alice.write("prj.xml", `<project name="home:alice:srch"><title>Search</title><description/></project>`), prj)
	alice.must("meta", "pkg", "-F", alice.write("pkg.xml", `<package name="srch-hello" project="home:alice:srch"><title>Hello</title><description/></package>`), prj, "srch-hello")
	alice.must("api", "-X", "PUT", "-f", alice.write("hello.spec", "Name: srch-hello\nVersion: 1.0\n"), "/source/"+prj+"/srch-hello/srch-hello.spec")

	bob.must("branch", prj, "srch-hello")
	bob.must("co", branch, "srch-hello")
	wc := filepath.Join(bob.dir, branch, "srch-hello")
	if code, out := bob.run(wc, "up"); code != 0 {
		t.Fatalf("osc up: %d\n%s", code, out)
	}
	bob.write(filepath.Join(branch, "srch-hello", "srch-hello.spec"), "Name: srch-hello\nVersion: 1.1\n")
	if code, out := bob.run(wc, "ci", "-m", "1.1"); code != 0 {
		t.Fatalf("osc ci: %d\n%s", code, out)
	}
	out := bob.must("sr", branch, "srch-hello", prj, "-m", "please take 1.1", "--yes")
	m := regexp.MustCompile(`created request id (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("osc sr: no request id in\n%s", out)
	}
	id := m[1]
	if code, out := bob.run(wc, "up"); code != 0 || !listsRequest(out, id) {
		t.Errorf("osc up in the branch does not name the open request %s: %d\n%s", id, code, out)
	}
	if out := alice.must("rq", "list", prj); !listsRequest(out, id) || !strings.Contains(out, "please take 1.1") {
		t.Errorf("osc rq list %s:\n%s", prj, out)
	}
	if out := alice.must("rq", "list", "-U", "bob"); !listsRequest(out, id) {
		t.Errorf("osc rq list -U bob:\n%s", out)
	}
	alice.must("review", "add", "-m", "please review", "-U", "carol", id)
	if out := carol.must("review", "list", "-U", "carol"); !listsRequest(out, id) {
		t.Errorf("osc review list -U carol:\n%s", out)
	}
	carol.must("review", "accept", "-m", "fine", "-U", "carol", id)
	if out := carol.must("review", "list", "-U", "carol"); listsRequest(out, id) {
		t.Errorf("osc review list -U carol still lists %s:\n%s", id, out)
	}
	if code, out := alice.osc("rq", "accept", "-m", "thanks", id); code != 0 {
		t.Fatalf("osc rq accept: %d\n%s\nlog:\n%s", code, out, p.stderr.String())
	}

	if out := alice.must("search", "--package", "srch-hello"); !strings.Contains(out, prj) {
		t.Errorf("osc search --package:\n%s", out)
	}
	if out := alice.must("search", "-s", "--package", "RCH-HEL"); !strings.Contains(out, "srch-hello") {
		t.Errorf("osc search -s --package:\n%s", out)
	}
	if out := alice.must("search", "--project", prj); !strings.Contains(out, prj) {
		t.Errorf("osc search --project:\n%s", out)
	}
	// osc's other listings that go through /search only (osc my rq and my sr read GET /request).
	for _, args := range [][]string{{"rq", "list"}, {"rq", "list", "-M"}, {"rq", "list", "-s", "all", prj},
		{"search", "-i", "alice"}, {"search", "-m", "alice"}, {"search", "-b", "bob"}, {"my", "pkg"}, {"my", "prj"},
		{"review", "list", "-G", "pocket-reviewers"}, {"review", "list", "-P", prj}} {
		alice.must(args...)
	}
}

// listsRequest reports whether osc's request listing out has request id: a line starting with
// the number and its state (a bare substring would also find the number in a time of day).
func listsRequest(out, id string) bool {
	return regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(id) + `\s+State:`).MatchString(out)
}
