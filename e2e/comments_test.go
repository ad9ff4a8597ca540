package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOscComments: osc comment list/create/delete against the built binary — the demo world's
// thread on devel:tools/pocket-cli, a new comment with a reply (osc indents replies under their
// parent), the blank a deleted comment with a reply leaves, a stranger's refusal, the
// notification in the outbox, and the refusals osc prints.
func TestOscComments(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--admin-password", e2eAdminPassword,
		"--bootstrap-token", e2eToken)
	p.waitReady(t)
	bob := newOscSession(t, p.url, "bob", "bob-password")
	alice := newOscSession(t, p.url, "alice", "alice-password")
	carol := newOscSession(t, p.url, "carol", "carol-password")
	has := func(t *testing.T, out string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Fatalf("output lacks %q:\n%s", w, out)
			}
		}
	}

	t.Run("demo thread", func(t *testing.T) {
		out := bob.must("comment", "list", "package", "devel:tools", "pocket-cli")
		has(t, out, "Comments:", ") On ", " UTC bob wrote:", "could %check skip those tests", "  ( ", " UTC alice wrote:\n  Good point.")
		has(t, bob.must("comment", "list", "project", "devel:tools"), "carol wrote:", "Reminder: submissions to devel:tools")
	})

	pkg := []string{"package", "devel:tools", "forge-changelog"}
	var first, reply string
	idOf := regexp.MustCompile(`\( (\d+) \) On \S+ \S+ UTC (\w+) wrote:\n(.*)`)
	t.Run("create and reply", func(t *testing.T) {
		has(t, bob.must(append([]string{"comment", "create", "-c", "Changelog dates are off by a day"}, pkg...)...), "Ok")
		for _, m := range idOf.FindAllStringSubmatch(bob.must(append([]string{"comment", "list"}, pkg...)...), -1) {
			first = m[1]
		}
		if first == "" {
			t.Fatal("bob's comment is not listed")
		}
		has(t, alice.must(append([]string{"comment", "create", "-p", first, "-c", "Fixed in the next\nrevision"}, pkg...)...), "Ok")
		out := carol.must(append([]string{"comment", "list"}, pkg...)...)
		has(t, out, "bob wrote:\nChangelog dates are off by a day", "UTC alice wrote:\n  Fixed in the next\n  revision")
		for _, m := range idOf.FindAllStringSubmatch(out, -1) {
			if m[2] == "alice" {
				reply = m[1]
			}
		}
	})

	t.Run("notification", func(t *testing.T) {
		code, body := request(t, "GET", p.url+"/_appliance/outbox?to=alice@pocketforge.test", e2eToken, nil)
		if code != 200 || !strings.Contains(body, "New comment in package devel:tools/forge-changelog by bob") {
			t.Fatalf("outbox %d: %s", code, body)
		}
	})

	t.Run("delete", func(t *testing.T) {
		code, out := carol.osc("comment", "delete", first)
		if code == 0 || !strings.Contains(out, "No permission to delete "+first) {
			t.Fatalf("carol deletes bob's comment: exit %d\n%s", code, out)
		}
		has(t, bob.must("comment", "delete", first), "Ok")
		has(t, bob.must(append([]string{"comment", "list"}, pkg...)...), "UTC _nobody_ wrote:\nThis comment has been deleted", "UTC alice wrote:\n  Fixed")
		has(t, alice.must("comment", "delete", reply), "Ok")
		has(t, alice.must("comment", "delete", first), "Ok")
		if out := bob.must(append([]string{"comment", "list"}, pkg...)...); strings.Contains(out, "wrote:") {
			t.Fatalf("comments left:\n%s", out)
		}
	})

	t.Run("refusals", func(t *testing.T) {
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"comment", "delete", "999999"}, "Couldn't find Comment with id 999999"},
			{[]string{"comment", "list", "request", "999999"}, "Couldn't find Request with id 999999"},
			{[]string{"comment", "list", "package", "devel:tools", "nope"}, "404"},
			{[]string{"comment", "create", "-c", "x", "project", "nope"}, "Project not found: nope"},
			{[]string{"comment", "create", "-p", "999999", "-c", "x", "project", "devel:tools"}, "Parent belongs to different object"},
			// osc opens an editor for an empty -c; the API refuses the empty body.
			{[]string{"api", "-X", "POST", "/comments/project/devel:tools"}, "Body can't be blank"},
		} {
			code, out := bob.osc(c.args...)
			if code == 0 || !strings.Contains(out, c.want) {
				t.Errorf("osc %v: exit %d, want %q:\n%s", c.args, code, c.want, out)
			}
		}
	})
}
