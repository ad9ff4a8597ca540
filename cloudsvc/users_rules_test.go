package cloudsvc

import (
	"testing"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

func TestParseScopes(t *testing.T) {
	cases := []struct{ in, want string }{
		{"*", "*"},
		{"account:read_only", "account:read_only"},
		{"events:read_only,account:read_write", "account:read_write events:read_only"},
		{"account:read_only account:read_write", "account:read_write"},
		{"account:read_write, account:read_only", "account:read_write"},
		{"account:read_only,*", "*"},
		{"maintenance:read_only", "maintenance:read_only"},
		{"maintenance:read_write", ""},
		{"linodes:read_only", ""}, // the real service's name; the seed's is instances
		{"account", ""},
		{"account:admin", ""},
		{"", ""},
		{" , ", ""},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseScopes(c.in, "scopes")
			if (err != nil) != (c.want == "") || got != c.want {
				t.Fatalf("ParseScopes(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
		})
	}
}

func TestScopesAllow(t *testing.T) {
	cases := []struct {
		scopes, area, level string
		want                bool
	}{
		{"*", "account", cloudstore.ReadWrite, true},
		{"account:read_only", "account", cloudstore.ReadOnly, true},
		{"account:read_only", "account", cloudstore.ReadWrite, false},
		{"account:read_write", "account", cloudstore.ReadOnly, true},
		{"events:read_write", "account", cloudstore.ReadOnly, false},
		{"account:read_only events:read_write", "events", cloudstore.ReadWrite, true},
		{"databases:read_only", "databases", cloudstore.ReadOnly, true},
	}
	for _, c := range cases {
		if got := ScopesAllow(c.scopes, c.area, c.level); got != c.want {
			t.Errorf("ScopesAllow(%q, %s, %s) = %v", c.scopes, c.area, c.level, got)
		}
	}
}

func TestUsernameAndEmailRules(t *testing.T) {
	cases := []struct {
		username, email string
		problems        int
	}{
		{"alice", "alice@example.com", 0},
		{"a_b-c9", "a@b.co", 0},
		{"ab", "a@b.co", 1},
		{"a--b", "a@b.co", 1},
		{"-ab", "a@b.co", 1},
		{"ab_", "a@b.co", 1},
		{"a b", "a@b.co", 1},
		{"abcdefghijabcdefghijabcdefghijab", "a@b.co", 0},
		{"abcdefghijabcdefghijabcdefghijabc", "a@b.co", 1},
		{"ok-name", "no-at-sign", 1},
		{"ok-name", "Name <a@b.co>", 1},
		{"ok-name", "a@localhost", 1},
		{"é-name", "a@b.co", 1},
	}
	for _, c := range cases {
		var p store.Problems
		checkUsername(&p, c.username)
		checkEmail(&p, c.email)
		if len(p) != c.problems {
			t.Errorf("%q %q: %v", c.username, c.email, p)
		}
	}
}
