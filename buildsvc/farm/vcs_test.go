package farm

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/spdx"
)

// TestVCSTag: the VCS tag of each scmsync form reads back (spdx.ParseVCS) as the repository,
// branch and commit it names; a revision is a commit of its own; what names no repository
// stamps nothing.
func TestVCSTag(t *testing.T) {
	pinned := strings.Repeat("0a", 32)
	for _, c := range []struct {
		scmsync, branch, commit string
	}{
		{"https://src.pocketforge.test/pool/pocket-cli#pocket-1.0", "pocket-1.0", ""},
		{"https://src.pocketforge.test/pool/pocket-cli?trackingbranch=main", "main", ""},
		{"https://src.pocketforge.test/pool/pocket-cli.git?trackingbranch=main#" + pinned, "main", pinned},
		{"https://src.pocketforge.test/pool/pocket-cli", "", ""},
	} {
		tag := vcsTag(c.scmsync, "0123456789abcdef0123456789abcdef")
		v, ok := spdx.ParseVCS(tag)
		if !ok || v.Org != "pool" || v.Repo != "pocket-cli" || v.Branch != c.branch || len(v.Commit) != 64 ||
			c.commit != "" && v.Commit != c.commit {
			t.Errorf("%s: tag %q reads as %+v", c.scmsync, tag, v)
		}
		g := gitRef(tag)
		if g == nil || g.BaseURL != "https://src.pocketforge.test" || g.Commit != v.Commit {
			t.Errorf("%s: git reference %+v", c.scmsync, g)
		}
	}
	a := vcsTag("https://src.pocketforge.test/pool/x#main", "0123456789abcdef0123456789abcdef")
	b := vcsTag("https://src.pocketforge.test/pool/x#main", "fedcba9876543210fedcba9876543210")
	if a == b || a != vcsTag("https://src.pocketforge.test/pool/x#main", "0123456789abcdef0123456789abcdef") {
		t.Errorf("a revision's commit: %q, %q", a, b)
	}
	for _, bad := range []string{"", "pool/x", "https://host", "not a url at all"} {
		if got := vcsTag(bad, "0123456789abcdef0123456789abcdef"); got != "" {
			t.Errorf("%q stamped %q", bad, got)
		}
	}
}
