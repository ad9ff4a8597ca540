package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// requestWorld is the built binary on a fresh demo world with an osc session for each of the
// demo persons who take part in requests.
type requestWorld struct {
	alice, bob, carol *oscSession
	url               string
}

func newRequestWorld(t *testing.T) *requestWorld {
	t.Helper()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword)
	p.waitReady(t)
	return &requestWorld{url: p.url, alice: newOscSession(t, p.url, "alice", "alice-password"),
		bob: newOscSession(t, p.url, "bob", "bob-password"), carol: newOscSession(t, p.url, "carol", "carol-password")}
}

// expect runs osc in o's scratch directory and fails the test unless it exits 0 and prints
// every one of want; it returns the output.
func expect(t *testing.T, o *oscSession, args []string, want ...string) string {
	t.Helper()
	return expectIn(t, o, o.dir, args, want...)
}

// expectIn is expect with osc run in dir (a working copy).
func expectIn(t *testing.T, o *oscSession, dir string, args []string, want ...string) string {
	t.Helper()
	code, out := o.run(dir, args...)
	if code != 0 {
		t.Fatalf("osc %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Fatalf("osc %s: the output lacks %q:\n%s", strings.Join(args, " "), w, out)
		}
	}
	return out
}

// refused runs osc, which must exit 1 and print every one of want.
func refused(t *testing.T, o *oscSession, args []string, want ...string) {
	t.Helper()
	code, out := o.osc(args...)
	if code != 1 {
		t.Fatalf("osc %s: exit %d, not 1\n%s", strings.Join(args, " "), code, out)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Fatalf("osc %s: the output lacks %q:\n%s", strings.Join(args, " "), w, out)
		}
	}
}

var createdRequest = regexp.MustCompile(`created request id (\d+)`)

// change branches project/pkg as o (into home:<login>:branches:<project>), checks the branch
// out, puts line on top of its .changes file and commits that: the branch then differs from
// its origin, so a submit of it is a change.
func change(t *testing.T, o *oscSession, login, project, pkg, line string) string {
	t.Helper()
	branch := "home:" + login + ":branches:" + project
	expect(t, o, []string{"branch", project, pkg}, branch+"/"+pkg)
	expect(t, o, []string{"co", branch, pkg}, "At revision ")
	wc := filepath.Join(o.dir, branch, pkg)
	changes := filepath.Join(wc, pkg+".changes")
	old, err := os.ReadFile(changes)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(changes, append([]byte(line+"\n"), old...), 0o644); err != nil {
		t.Fatal(err)
	}
	expectIn(t, o, wc, []string{"ci", "-m", line}, "Committed revision 2.")
	return branch
}

// submit runs osc sr from branch/pkg to target/pkg as o and returns the new request's number.
func submit(t *testing.T, o *oscSession, branch, pkg, target, message string) string {
	t.Helper()
	out := expect(t, o, []string{"sr", branch, pkg, target, "-m", message, "--yes"})
	m := createdRequest.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("osc sr names no request:\n%s", out)
	}
	return m[1]
}

// TestOscRequestAccept: the submit life osc drives, against the built binary — bob branches
// devel:tools/pocket-cli (alice's), changes and commits it, submits it (`sr --yes`); the request waits
// for carol, devel:tools' reviewer, and shows in her review list and bob's request list; carol
// accepts her review, alice (devel:tools' maintainer) accepts the request: the target's log
// shows the request number, its history carries <requestid>, and the branch project is gone
// (sourceupdate cleanup, the default for the creator's own branch project). rq accept then
// looks for packages developed in the target: Pocket:1.0/pocket-cli is, and links to it, so
// osc offers no forward.
func TestOscRequestAccept(t *testing.T) {
	t.Parallel()
	w := newRequestWorld(t)
	const pkg = "pocket-cli"
	branch := change(t, w.bob, "bob", "devel:tools", pkg, "- bob: build with verbose output")
	id := submit(t, w.bob, branch, pkg, "devel:tools", "Verbose build logs")

	expect(t, w.bob, []string{"rq", "show", id}, "Request: #"+id, "submit:", branch+"/"+pkg+"@2(cleanup) -> devel:tools",
		"Verbose build logs", "State:   review", "Review:  new        User: carol", "Request created")
	t.Run("lists", func(t *testing.T) {
		expect(t, w.carol, []string{"review", "list", "-U", "carol"}, id+"  State:review", branch+"/"+pkg)
		expect(t, w.bob, []string{"rq", "list", "-U", "bob"}, id+"  State:review", branch+"/"+pkg)
		expect(t, w.alice, []string{"rq", "list", "devel:tools", pkg}, id+"  State:review")
		// osc my sr / my rq read GET /request?view=collection: the creator's requests, and
		// the reviews waiting for the reviewer (states=review&reviewstates=new&roles=reviewer).
		expect(t, w.bob, []string{"my", "sr"}, id+"  State:review", branch+"/"+pkg)
		expect(t, w.carol, []string{"my", "rq"}, "Requests which request a review by you", id+"  State:review")
	})
	// Not while carol's review waits, and only by the maintainers of the target.
	refused(t, w.alice, []string{"rq", "accept", "-m", "early", id}, "Request is in review state.")
	expect(t, w.carol, []string{"review", "accept", "-m", "ok", "-U", "carol", id}, "ok")
	expect(t, w.bob, []string{"rq", "show", id}, "State:   new", "Review:  accepted   User: carol")
	refused(t, w.bob, []string{"rq", "accept", "-m", "mine", id}, "No permission to modify target of request "+id)

	expect(t, w.alice, []string{"rq", "accept", "-m", "ok", id}, "Result of change request state: ok")
	expect(t, w.alice, []string{"rq", "show", id}, "State:   accepted", "Comment: ok", "Request got accepted")
	expect(t, w.alice, []string{"log", "devel:tools", pkg}, "| alice |", "| rq"+id+"\n\nVerbose build logs\n")
	expect(t, w.alice, []string{"api", "/source/devel:tools/" + pkg + "/_history"}, "<requestid>"+id+"</requestid>",
		"<comment>Verbose build logs</comment>")
	expect(t, w.alice, []string{"cat", "devel:tools", pkg, pkg + ".changes"}, "- bob: build with verbose output\n")
	code, out := w.bob.osc("ls", branch)
	if code == 0 || !strings.Contains(out, "404") || !strings.Contains(out, "Project not found: "+branch) {
		t.Fatalf("the branch after the accept: exit %d\n%s", code, out)
	}
	// osc maintainer reads the metas: a package without roles of its own shows its project's.
	expect(t, w.carol, []string{"maintainer", "devel:tools", pkg}, "maintainer of devel:tools : \n alice\n")
	expect(t, w.carol, []string{"maintainer", "devel:tools", "forge-build"}, "maintainer of devel:tools/forge-build : \n bob\n")
}

// TestOscRequestStates: the other ends of a request with osc — alice declines bob's submit to
// devel:libs (no reviewers there: it is new at once) with a reason, bob reopens it and then
// revokes it; `rq show -d` prints its diff; bob's submit of libforge is superseded by alice's
// submit of the same package with `rq supersede` (both wait for carol, libforge's reviewer),
// and bob, asked for a review of alice's by `review add`, declines it with `review decline`; and the demo world's requests show as the
// fixtures made them.
func TestOscRequestStates(t *testing.T) {
	t.Parallel()
	w := newRequestWorld(t)
	branch := change(t, w.bob, "bob", "devel:libs", "libpocket", "- bob: document the ABI break")
	id := submit(t, w.bob, branch, "libpocket", "devel:libs", "Document the ABI break")
	expect(t, w.bob, []string{"rq", "show", "-d", id}, "State:   new", "Document the ABI break",
		"libpocket.changes", "+- bob: document the ABI break\n")

	expect(t, w.alice, []string{"rq", "decline", "-m", "Say which symbols changed.", id}, "Result of change request state: ok")
	expect(t, w.bob, []string{"rq", "show", id}, "State:   declined", "Comment: Say which symbols changed.", "Request got declined")
	refused(t, w.carol, []string{"rq", "reopen", "-m", "me too", id}, "No permission to reopen request "+id)
	expect(t, w.bob, []string{"rq", "reopen", "-m", "Please look again.", id}, "Result of change request state: ok")
	expect(t, w.bob, []string{"rq", "show", id}, "State:   new", "Comment: Please look again.", "Request got reopened")
	expect(t, w.bob, []string{"rq", "revoke", "-m", "Withdrawn.", id}, "Result of change request state: ok")
	expect(t, w.bob, []string{"rq", "show", id}, "State:   revoked", "Request got revoked")
	refused(t, w.alice, []string{"rq", "accept", "-m", "late", id}, "Request is not in new state.")

	// Two fixes of libforge: alice's supersedes bob's.
	bobs := change(t, w.bob, "bob", "devel:libs", "libforge", "- bob: fix the recipe parser")
	old := submit(t, w.bob, bobs, "libforge", "devel:libs", "Fix the recipe parser")
	alices := change(t, w.alice, "alice", "devel:libs", "libforge", "- alice: fix the recipe parser, with a test")
	replacement := submit(t, w.alice, alices, "libforge", "devel:libs", "Fix the recipe parser, with a test")
	expect(t, w.bob, []string{"rq", "supersede", "-m", "alice's has a test", old, replacement}, "Result of change request state: ok")
	expect(t, w.bob, []string{"rq", "show", old}, "State:   superseded", "Comment: alice's has a test",
		"Request got superseded by request "+replacement)
	expect(t, w.bob, []string{"api", "/request/" + old}, `<state name="superseded" who="bob"`, `superseded_by="`+replacement+`"`)
	expect(t, w.alice, []string{"rq", "show", replacement}, "State:   review", "Review:  new        User: carol")

	// alice asks bob for a review too; his negative one declines her request.
	expect(t, w.alice, []string{"review", "add", "-m", "You know the parser.", "-U", "bob", replacement}, "ok")
	expect(t, w.alice, []string{"rq", "show", replacement}, "Review:  new        User: bob")
	refused(t, w.carol, []string{"review", "accept", "-m", "ok", "-U", "bob", replacement}, "review state change is not permitted for carol")
	expect(t, w.bob, []string{"review", "decline", "-m", "The test does not cover nested recipes.", "-U", "bob", replacement}, "ok")
	expect(t, w.alice, []string{"rq", "show", replacement}, "State:   declined", "Comment: The test does not cover nested recipes.",
		"Review:  declined   User: bob")

	t.Run("demo requests", func(t *testing.T) {
		expect(t, w.carol, []string{"rq", "show", "1"}, "home:bob/forge-changelog@2 -> devel:tools", "State:   accepted",
			"Comment: Thanks, bob.", "Review:  accepted   User: carol")
		expect(t, w.carol, []string{"rq", "show", "2"}, "State:   declined", "rebase pocket-lint-no-network-tests.patch",
			"Fair enough: I will rebase the patch")
		expect(t, w.carol, []string{"rq", "show", "3"}, "home:alice:branches:devel:tools/forge-utils@2(cleanup) -> devel:tools",
			"State:   review", "Review:  new        User: carol", "I will try the new --help on aarch64")
		expect(t, w.carol, []string{"log", "devel:tools", "forge-changelog"}, "| rq1\n")
		expect(t, w.carol, []string{"review", "list", "-U", "carol"}, "3  State:review")
		// osc looks for the package's open requests after a checkout, and finds alice's.
		expect(t, w.carol, []string{"co", "devel:tools", "forge-utils"}, "Pending requests for package: devel:tools/forge-utils (1)",
			"3  State:review")
	})
}
