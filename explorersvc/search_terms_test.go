package explorersvc

import (
	"strings"
	"testing"
	"unsafe"
)

// TestParseVCS: the four forms, straight at the parser.
func TestParseVCS(t *testing.T) {
	cases := []struct {
		name, q string
		want    VCSQuery
		err     bool
	}{
		{"org/repo@branch", "pool/bash@main", VCSQuery{Org: "pool", Repo: "bash", Branch: "main"}, false},
		{"repo@branch", "bash@main", VCSQuery{Repo: "bash", Branch: "main"}, false},
		{"repo", "bash", VCSQuery{Repo: "bash"}, false},
		{"commit of 8 hex", "DEADBEEF", VCSQuery{Commit: "deadbeef"}, false},
		{"commit of 64 hex", strings.Repeat("ab", 32), VCSQuery{Commit: strings.Repeat("ab", 32)}, false},
		{"7 hex is a repo", "deadbee", VCSQuery{Repo: "deadbee"}, false},
		{"hex with a branch is a repo", "deadbeef@main", VCSQuery{Repo: "deadbeef", Branch: "main"}, false},
		{"# for @", "pool/bash#main", VCSQuery{Org: "pool", Repo: "bash", Branch: "main"}, false},
		{"branch with slash and dots", "bash@release/1.0", VCSQuery{Repo: "bash", Branch: "release/1.0"}, false},
		{"org/repo without branch", "pool/bash", VCSQuery{Org: "pool", Repo: "bash"}, false},
		{"@main", "@main", VCSQuery{}, true},
		{"org/@b", "org/@b", VCSQuery{}, true},
		{"a/b/c@x", "a/b/c@x", VCSQuery{}, true},
		{"/repo", "/repo", VCSQuery{}, true},
		{"repo@", "repo@", VCSQuery{}, true},
		{"two separators", "a#b#c", VCSQuery{}, true},
		{"empty", "", VCSQuery{}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseVCS(c.q)
			if (err != nil) != c.err || err == nil && got != c.want {
				t.Fatalf("parseVCS(%q) = %+v, %v; want %+v, error %v", c.q, got, err, c.want, c.err)
			}
		})
	}
}

// TestCleanTermOwnsTheTerm: a term read from a query string views a buffer the next request
// reuses; the cleaned term keys the answer cache and stays in its answers, so it must not
// change with that buffer.
func TestCleanTermOwnsTheTerm(t *testing.T) {
	buf := []byte(" curl ")
	got, err := cleanTerm(unsafe.String(&buf[0], len(buf)), 0)
	if err != nil {
		t.Fatal(err)
	}
	copy(buf, " wget ")
	if got != "curl" {
		t.Fatalf("the cleaned term changed with the request's buffer: %q", got)
	}
}
