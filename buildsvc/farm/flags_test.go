package farm

import (
	"testing"

	"github.com/pocketforge/pocketforge/store/buildstore"
)

// TestFlagEnabled: the backend's resolution of build flags per repository and arch.
func TestFlagEnabled(t *testing.T) {
	f := func(status, repo, arch string) buildstore.Flag {
		return buildstore.Flag{Name: "build", Status: status, Repository: repo, Arch: arch}
	}
	cases := []struct {
		name      string
		prj, pkg  []buildstore.Flag
		repo, arc string
		want      bool
	}{
		{"no entries: the default", nil, nil, "r", "x86_64", true},
		{"project disables all", []buildstore.Flag{f("disable", "", "")}, nil, "r", "x86_64", false},
		{"package enables over a project disable", []buildstore.Flag{f("disable", "", "")}, []buildstore.Flag{f("enable", "", "")}, "r", "x86_64", true},
		{"package disables one arch", nil, []buildstore.Flag{f("disable", "", "aarch64")}, "r", "aarch64", false},
		{"… and not the other", nil, []buildstore.Flag{f("disable", "", "aarch64")}, "r", "x86_64", true},
		{"repository outweighs arch", nil, []buildstore.Flag{f("disable", "", "x86_64"), f("enable", "r", "")}, "r", "x86_64", true},
		{"repository and arch outweigh repository", nil, []buildstore.Flag{f("enable", "r", ""), f("disable", "r", "x86_64")}, "r", "x86_64", false},
		{"equal weight: disable wins", nil, []buildstore.Flag{f("enable", "", ""), f("disable", "", "")}, "r", "x86_64", false},
		{"another repository's entry does not match", nil, []buildstore.Flag{f("disable", "other", "")}, "r", "x86_64", true},
		{"package entry for another arch falls back to the project", []buildstore.Flag{f("disable", "", "")}, []buildstore.Flag{f("enable", "", "aarch64")}, "r", "x86_64", false},
		{"another flag does not count", []buildstore.Flag{{Name: "publish", Status: "disable"}}, nil, "r", "x86_64", true},
	}
	for _, c := range cases {
		if got := FlagEnabled(c.prj, c.pkg, "build", c.repo, c.arc, true); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}
