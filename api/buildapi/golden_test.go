package buildapi

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
)

// update rewrites the golden files of testdata/ from the current answers (UPDATE_GOLDEN=1, as
// DESIGN.md fixes for every golden).
var update = os.Getenv("UPDATE_GOLDEN") == "1"

// TestGolden: the documents osc and other clients read, whole, against testdata/<name>.xml
// (the demo world on a fixed clock, so every byte is stable). A change in any element, attribute
// or order shows here; `UPDATE_GOLDEN=1 go test ./api/build -run TestGolden` rewrites the files after
// a deliberate change, for review in the diff.
func TestGolden(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, path string
		status     int
	}{
		{"about", "/about", 200},
		{"architectures", "/architectures", 200},
		{"configuration", "/configuration", 200},
		{"distributions", "/distributions", 200},
		{"issue_trackers", "/issue_trackers", 200},
		{"person", "/person/alice", 200},
		{"group", "/group/pocket-reviewers", 200},
		{"projects", "/source", 200},
		{"packages", "/source/devel:tools", 200},
		{"packages_expanded", "/source/Pocket:1.0?expand=1", 200},
		{"project_meta", "/source/devel:tools/_meta", 200},
		{"branch_project_meta", "/source/home:alice:branches:devel:tools/_meta", 200},
		{"package_meta", "/source/devel:tools/pocket-cli/_meta", 200},
		{"listing", "/source/devel:tools/pocket-cli", 200},
		{"listing_rev1", "/source/devel:tools/pocket-cli?rev=1", 200},
		{"history", "/source/devel:tools/pocket-cli/_history", 200},
		{"link_listing", "/source/Pocket:1.0/pocket-cli", 200},
		{"link_expanded", "/source/Pocket:1.0/pocket-cli?expand=1", 200},
		{"branch_listing", "/source/home:alice:branches:devel:tools/forge-utils", 200},
		{"branch_expanded", "/source/home:alice:branches:devel:tools/forge-utils?expand=1", 200},
		{"sourceinfo", "/source/devel:libs/libforge?view=info&parse=1", 200},
		{"attribute_namespaces", "/attribute", 200},
		{"attribute_definition", "/attribute/OBS/Maintained/_meta", 200},
		{"package_attributes", "/source/devel:tools/pocket-cli/_attribute", 200},
		{"unknown_project", "/source/nope/_meta", 404},
		{"unknown_package", "/source/devel:tools/nope", 404},
		{"no_such_revision", "/source/devel:tools/pocket-cli?rev=99", 404},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := apitest.Do(t, e.app, req("GET", c.path, asBob, ""))
			if got.Status != c.status {
				t.Fatalf("status %d, want %d: %s", got.Status, c.status, got.Body)
			}
			checkGolden(t, filepath.Join("testdata", c.name+".xml"), "GET "+c.path, got.Body)
		})
	}
}

// lineDiff shows the first lines where want and got part.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  want " + wl + "\n  got  " + gl
		}
	}
	return ""
}

// checkGolden compares body, the answer to what (a method and path), with the golden file, or
// with UPDATE_GOLDEN=1 writes it there (creating its directory).
func checkGolden(t *testing.T, file, what, body string) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (UPDATE_GOLDEN=1 creates it)", err)
	}
	if body != string(want) {
		t.Errorf("%s differs from %s:\n%s", what, file, lineDiff(string(want), body))
	}
}

// goldenScenario is one request of a table run in order on one env. tick moves the clock
// first. With golden, the answer's body must be testdata/<dir>/<golden>.xml (UPDATE_GOLDEN=1
// rewrites it) and Expect hold, its status 200 when it names none; without, Expect holds.
type goldenScenario struct {
	name string
	apitest.Request
	apitest.Expect
	golden string
	tick   time.Duration
}

func (e *env) runGolden(t *testing.T, dir string, list []goldenScenario) {
	t.Helper()
	for _, s := range list {
		t.Run(s.name, func(t *testing.T) {
			if s.tick != 0 {
				e.clk.Set(e.clk.Now().Add(s.tick))
			}
			got := apitest.Do(t, e.app, s.Request)
			if s.golden != "" && s.Status == 0 {
				s.Status = 200
			}
			s.Expect.Check(t, got)
			if s.golden != "" {
				checkGolden(t, filepath.Join("testdata", dir, s.golden+".xml"), s.Method+" "+s.Path, got.Body)
			}
		})
	}
}
