package badges

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update rewrites testdata/*.svg from the current drawings (UPDATE_GOLDEN=1).
var update = os.Getenv("UPDATE_GOLDEN") == "1"

// testLinks are fixed addresses of the pages the drawings link to.
var testLinks = Links{
	Monitor: func(project, pkg, state string) string {
		u := "https://forge.example/projects/" + project + "/monitor"
		if pkg != "" || state != "" {
			u += "?package=" + pkg + "&state=" + state
		}
		return u
	},
	Log: func(project, pkg, repo, arch string) string {
		return "https://forge.example/projects/" + project + "/packages/" + pkg + "/logs/" + repo + "/" + arch
	},
}

// grid is a result list for the tests: results by repository/arch, each with its statuses.
type grid []gridResult

type gridResult struct {
	repo, arch string
	statuses   [][2]string // package, code
}

func (g grid) Len() int                           { return len(g) }
func (g grid) Result(i int) (string, string, int) { return g[i].repo, g[i].arch, len(g[i].statuses) }
func (g grid) Status(i, j int) (string, string)   { return g[i].statuses[j][0], g[i].statuses[j][1] }

// flat is every status of g, as a package badge takes them.
func (g grid) flat() []Status {
	var out []Status
	for _, r := range g {
		for _, st := range r.statuses {
			out = append(out, Status{Package: st[0], Repository: r.repo, Arch: r.arch, Code: st[1]})
		}
	}
	return out
}

// results makes a result list: packages × columns ("repo/arch"), the code of package i in
// column j being codes[(i+j) % len(codes)].
func results(packages, columns []string, codes ...string) grid {
	var out grid
	for j, col := range columns {
		repo, arch, _ := strings.Cut(col, "/")
		r := gridResult{repo: repo, arch: arch}
		for i, p := range packages {
			r.statuses = append(r.statuses, [2]string{p, codes[(i+j)%len(codes)]})
		}
		out = append(out, r)
	}
	return out
}

func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + string(rune('a'+i%26)) + strings.Repeat("x", i/26)
	}
	return out
}

var twoRepos = []string{"openSUSE_Tumbleweed/x86_64", "openSUSE_Tumbleweed/aarch64"}

// goldenCases are every drawing the tests keep: each state and colour, labels short, long,
// huge and hostile, and tables of every shape.
var goldenCases = []struct {
	name string
	draw func() []byte
}{
	{"badge-passing", func() []byte { return Badge{Label: "build", Message: "passing", Colour: ColourPassing}.SVG() }},
	{"project-passing", func() []byte {
		return Project("Pocket:1.0", "", results([]string{"pocket", "pocket-cli"}, twoRepos, "succeeded", "excluded"), testLinks)
	}},
	{"project-failed", func() []byte {
		return Project("devel:tools", "", results(names("pkg-", 5), twoRepos, "succeeded", "failed", "building", "unresolvable"), testLinks)
	}},
	{"project-blocked", func() []byte {
		return Project("devel:tools", "", results(names("pkg-", 3), twoRepos, "succeeded", "blocked"), testLinks)
	}},
	{"project-building", func() []byte {
		return Project("devel:tools", "ci", results(names("pkg-", 3), twoRepos, "succeeded", "scheduled", "building"), testLinks)
	}},
	{"project-inactive", func() []byte {
		return Project("devel:tools", "", results(names("pkg-", 2), twoRepos, "disabled", "excluded"), testLinks)
	}},
	{"project-no-builds", func() []byte { return Project("devel:tools", "", nil, testLinks) }},
	{"project-label-metachars", func() []byte {
		return Project("devel:tools", `<script>alert("x")</script> & 'co'`, results([]string{"a"}, twoRepos, "succeeded"), testLinks)
	}},
	{"project-label-long", func() []byte {
		return Project("devel:tools", strings.Repeat("very long label ", 8), results([]string{"a"}, twoRepos, "succeeded"), testLinks)
	}},
	{"project-label-10k", func() []byte {
		return Project("devel:tools", strings.Repeat("ÿ<&", 10<<10/5), results([]string{"a"}, twoRepos, "failed"), testLinks)
	}},
	{"project-label-unicode", func() []byte {
		return Project("devel:tools", "ビルド ✓ \x01\xff", results([]string{"a"}, twoRepos, "succeeded"), testLinks)
	}},
	{"package-passing", func() []byte {
		return Package("Pocket:1.0", "pocket", "", results([]string{"pocket"}, twoRepos, "succeeded").flat(), testLinks)
	}},
	{"package-failed", func() []byte {
		return Package("Pocket:1.0", "pocket", "", results([]string{"pocket"}, twoRepos, "succeeded", "broken").flat(), testLinks)
	}},
	{"package-blocked", func() []byte {
		return Package("Pocket:1.0", "pocket", "", results([]string{"pocket"}, twoRepos, "blocked").flat(), testLinks)
	}},
	{"package-building", func() []byte {
		return Package("Pocket:1.0", "pocket", "", results([]string{"pocket"}, twoRepos, "signing", "succeeded").flat(), testLinks)
	}},
	{"package-inactive", func() []byte {
		return Package("Pocket:1.0", "pocket", "", results([]string{"pocket"}, twoRepos, "disabled").flat(), testLinks)
	}},
	{"package-script-name", func() []byte {
		return Package("home:mallory", "<script>", "", results([]string{"<script>"}, twoRepos, "failed").flat(), testLinks)
	}},
	{"error", func() []byte { return ErrorBadge("build", "project 'nope' not found") }},
	{"table-small", func() []byte {
		return Table("Pocket:1.0", results([]string{"pocket", "pocket-cli"}, []string{"standard/x86_64"}, "succeeded", "failed"), TableOptions{}, testLinks)
	}},
	{"table-every-code", func() []byte {
		codes := []string{"succeeded", "failed", "unresolvable", "broken", "blocked", "scheduled", "dispatching", "building",
			"signing", "finished", "disabled", "excluded", "locked", "deleting", "unknown"}
		return Table("devel:tools", results(names("pkg-", 15), twoRepos, codes...), TableOptions{}, testLinks)
	}},
	{"table-long-names", func() []byte {
		return Table(strings.Repeat("home:someone:branches:", 6)+"x", results([]string{"<script>alert(1)</script>",
			strings.Repeat("a-very-long-package-name-", 6), "short"},
			[]string{"openSUSE_Factory_and_a_repository_named_at_length/x86_64", "15.6/aarch64"}, "succeeded", "building", "failed"), TableOptions{}, testLinks)
	}},
	{"table-50x10", func() []byte {
		return Table("openSUSE:Factory", results(names("pkg-", 50), repoNames(10), "succeeded", "succeeded", "failed", "building", "blocked", "excluded"), TableOptions{}, testLinks)
	}},
	{"table-truncated", func() []byte {
		return Table("openSUSE:Factory", results(names("pkg-", 48), twoRepos, "succeeded", "failed"), TableOptions{MaxPackages: 12}, testLinks)
	}},
	{"table-truncated-repos", func() []byte {
		return Table("openSUSE:Factory", results(names("pkg-", 30), repoNames(14), "succeeded", "failed", "building"), TableOptions{MaxPackages: 20, MaxRepos: 5}, testLinks)
	}},
	{"table-compact", func() []byte {
		return Table("devel:tools", results(names("pkg-", 6), repoNames(4), "succeeded", "failed", "building", "excluded", "blocked"), TableOptions{Compact: true}, testLinks)
	}},
	{"table-compact-truncated", func() []byte {
		return Table("devel:tools", results(names("pkg-", 120), repoNames(3), "succeeded", "failed"), TableOptions{Compact: true, MaxPackages: 200}, testLinks)
	}},
	{"table-no-builds", func() []byte { return Table("devel:tools", nil, TableOptions{}, testLinks) }},
}

func repoNames(n int) []string {
	out := make([]string, n)
	archs := []string{"x86_64", "aarch64"}
	for i := range out {
		out[i] = "repo" + string(rune('A'+i/2)) + "/" + archs[i%2]
	}
	return out
}

// TestGolden compares each drawing with testdata/<name>.svg byte for byte.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			got := c.draw()
			path := filepath.Join("testdata", c.name+".svg")
			if update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (UPDATE_GOLDEN=1 writes it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the drawing (UPDATE_GOLDEN=1 to accept):\n%s", path, got)
			}
		})
	}
}
