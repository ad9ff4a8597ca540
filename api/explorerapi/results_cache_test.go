package explorerapi

import (
	"regexp"
	"slices"
	"testing"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The results cache follows the farm: a package committed to a followed project shows in
// _result as scheduled, then building, then succeeded, each once the cache has refreshed on the
// store's change mark — and until then the explorer keeps answering the previous snapshot.

// helloSpec builds against the demo base (gcc and make are in Pocket:1.0/standard).
const helloSpec = "Name: hello\nVersion: 1.0\nRelease: 0\nSummary: hello\nLicense: MIT\nBuildRequires: gcc make\n" +
	"%description\nhello.\n\n%build\nmake\n\n%install\nmkdir -p %{buildroot}%{_bindir}\n\n%files\n%{_bindir}/hello\n"

// helloCode is hello's status code in devel:tools/standard/x86_64 as the explorer answers it
// ("" when the result lists no hello), and the answer's state. It asks twice, filtered to
// x86_64 and whole (x86_64 comes first in the meta), so the memo of whole documents is
// checked against a fresh render every time.
func (e *resultsEnv) helloCode(t *testing.T) (code, state string) {
	t.Helper()
	hello := regexp.MustCompile(`<status package="hello" code="([a-z]+)"`)
	var codes [2]string
	for i, path := range []string{"/api/projects/devel:tools/_result?archs=x86_64", "/api/projects/devel:tools/_result"} {
		got := e.get(t, path)
		if got.Status != 200 {
			t.Fatalf("_result: %d %s", got.Status, got.Body)
		}
		checkResultState(t, got.Body)
		if i == 0 {
			state = stateAttr.FindStringSubmatch(got.Body)[1]
		}
		if m := hello.FindStringSubmatch(got.Body); m != nil {
			codes[i] = m[1]
		}
	}
	if codes[0] != codes[1] {
		t.Fatalf("hello is %q filtered but %q in the whole answer", codes[0], codes[1])
	}
	return codes[0], state
}

// commitHello adds devel:tools/hello with a spec file, as alice.
func (e *resultsEnv) commitHello(t testing.TB) {
	t.Helper()
	err := e.db.Write(func(tx kv.Tx) error {
		if err := buildstore.PutPackage(tx, buildstore.Package{Project: "devel:tools", Name: "hello"}); err != nil {
			return err
		}
		sum, err := buildstore.PutBlob(tx, []byte(helloSpec))
		if err != nil {
			return err
		}
		_, err = buildsvc.CommitTree(tx, "devel:tools", "hello", []buildstore.FileEntry{{Name: "hello.spec", MD5: sum}}, "alice", e.clk.Now(), buildsvc.CommitOptions{})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestResultsCacheFollowsABuild(t *testing.T) {
	e := newResultsEnv(t)
	e.tick() // the first fill, as serve's first RunOnce
	if code, _ := e.helloCode(t); code != "" {
		t.Fatalf("hello is there before it was committed: %s", code)
	}
	e.commitHello(t)

	// The scheduler's pass, then the workers' step, each followed by a refresh; before the
	// refresh the answer is the previous snapshot's.
	if err := e.build.Farm.SchedulePending(); err != nil {
		t.Fatal(err)
	}
	if code, _ := e.helloCode(t); code != "" {
		t.Fatalf("the cache changed without a refresh: hello %s", code)
	}
	if err := e.im.RefreshResults(false); err != nil {
		t.Fatal(err)
	}
	code, scheduledState := e.helloCode(t)
	if code != "scheduled" {
		t.Fatalf("after the scheduler's pass hello is %q, want scheduled", code)
	}
	if err := e.im.RefreshResults(false); err != nil { // nothing moved: the same snapshot
		t.Fatal(err)
	}
	if _, again := e.helloCode(t); again != scheduledState {
		t.Errorf("a refresh without a change moved the state %s → %s", scheduledState, again)
	}
	if err := e.build.Farm.WorkStep(); err != nil {
		t.Fatal(err)
	}
	if err := e.im.RefreshResults(false); err != nil {
		t.Fatal(err)
	}
	code, buildingState := e.helloCode(t)
	if code != "building" || buildingState == scheduledState {
		t.Fatalf("after the workers' step hello is %q (state %s), want building with a new state", code, buildingState)
	}

	// From here only the clock jobs, as serve runs them: the farm's, then the cache's.
	var seen []string
	for i := 0; i < 20 && code != "succeeded"; i++ {
		e.clk.Advance(demoBuildTime)
		e.tick()
		code, _ = e.helloCode(t)
		seen = append(seen, code)
	}
	if code != "succeeded" {
		t.Fatalf("hello never succeeded through the jobs; seen %v", seen)
	}
	if i := slices.IndexFunc(seen, func(c string) bool { return c != "building" && c != "succeeded" }); i >= 0 {
		t.Errorf("between building and succeeded hello was %q (%v)", seen[i], seen)
	}
}

// TestResultsCacheDropsAProjectMadeHidden: a project that gets <access><disable/> leaves the
// cache at the next tick (404 like a missing one); one made visible again comes back.
func TestResultsCacheDropsAProjectMadeHidden(t *testing.T) {
	e := newResultsEnv(t)
	e.tick()
	setAccess := func(status string) {
		t.Helper()
		err := e.db.Write(func(tx kv.Tx) error {
			p, err := buildstore.GetProject(tx, "devel:libs")
			if err != nil {
				return err
			}
			p.Flags = []buildstore.Flag{{Name: "access", Status: status}}
			return buildstore.PutProject(tx, p)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	path := "/api/projects/devel:libs/_result"
	if got := e.get(t, path); got.Status != 200 {
		t.Fatalf("before: %d %s", got.Status, got.Body)
	}
	setAccess("disable")
	if got := e.get(t, path); got.Status != 200 {
		t.Errorf("the cache changed before its tick: %d", got.Status)
	}
	e.tick()
	if got := e.get(t, path); got.Status != 404 || got.Body != `{"error":"project 'devel:libs' not found"}` {
		t.Errorf("hidden: %d %s, want the 404 of a missing project", got.Status, got.Body)
	}
	setAccess("enable")
	e.tick()
	if got := e.get(t, path); got.Status != 200 {
		t.Errorf("visible again: %d %s", got.Status, got.Body)
	}
}
