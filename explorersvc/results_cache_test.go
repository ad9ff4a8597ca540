package explorersvc

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/jobs"
)

// The results cache over a backend that is not the build service: the interface is all it
// needs (a remote backend will be another one), refreshes happen only when the change mark
// moves, a project whose read fails keeps its last results and is retried, a gone one leaves,
// and reads during refreshes always see one whole snapshot.

// fakeBackend holds projects in memory; every method counts its calls.
type fakeBackend struct {
	mu       sync.Mutex
	mark     uint64
	projects map[string]ProjectResults
	failing  map[string]bool // Results fails (not ErrNoProject) for these
	reads    atomic.Int64
}

func (f *fakeBackend) Projects(context.Context) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for name := range f.projects {
		out = append(out, name)
	}
	slices.Sort(out)
	return out, nil
}

func (f *fakeBackend) Results(_ context.Context, project string) (ProjectResults, error) {
	f.reads.Add(1)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failing[project] {
		return ProjectResults{}, errors.New("backend timed out")
	}
	p, ok := f.projects[project]
	if !ok {
		return ProjectResults{}, fmt.Errorf("%w: %s", ErrNoProject, project)
	}
	return p, nil
}

func (f *fakeBackend) Configuration(context.Context) (BackendConfig, error) {
	return BackendConfig{Schedulers: []string{"x86_64"}}, nil
}

func (f *fakeBackend) Binaries(context.Context, string) ([]Binary, error) { return nil, nil }

// Products and ProductFiles: the fake publishes no product (products_follow_test.go's
// backend does).
func (f *fakeBackend) Products(context.Context, string) ([]ProductMedium, error) { return nil, nil }

func (f *fakeBackend) ProductFiles(context.Context, ProductMedium) (fs.FS, error) {
	return nil, fs.ErrNotExist
}

func (f *fakeBackend) Changes(context.Context) (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.mark, nil
}

// set replaces project's results (code for every package) and moves the mark.
func (f *fakeBackend) set(project, code string, packages int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := RepoResult{Repository: "standard", Arch: "x86_64", Code: "published"}
	for i := range packages {
		r.Statuses = append(r.Statuses, PackageStatus{Package: fmt.Sprintf("pkg%03d", i), Code: code})
	}
	f.projects[project] = ProjectResults{Project: project, Results: []RepoResult{r}}
	f.mark++
}

func newFakeService(t *testing.T, follow ...string) (*Service, *fakeBackend) {
	t.Helper()
	f := &fakeBackend{projects: map[string]ProjectResults{}, failing: map[string]bool{}}
	s := &Service{Now: time.Now}
	if err := s.UseBackend(f, follow); err != nil {
		t.Fatal(err)
	}
	return s, f
}

// codeOf is the first package's code of project in the cache ("" when not found).
func codeOf(t *testing.T, s *Service, project string) string {
	t.Helper()
	res, err := s.BuildResults(project, ResultFilter{})
	if err != nil {
		return ""
	}
	return res.Results[0].Statuses[0].Code
}

func TestResultsCacheRefreshesOnTheMark(t *testing.T) {
	s, f := newFakeService(t)
	f.set("a", "scheduled", 3)
	f.set("b", "succeeded", 3)
	if got := codeOf(t, s, "a"); got != "scheduled" { // the first read fills the cache
		t.Fatalf("a is %q", got)
	}
	reads := f.reads.Load()
	r := &jobs.Runner{}
	s.RegisterJobs(r, "", 0)
	r.RunOnce(time.Now(), slog.New(slog.DiscardHandler))
	if f.reads.Load() != reads {
		t.Errorf("a tick without a change read %d projects", f.reads.Load()-reads)
	}
	f.set("a", "succeeded", 3)
	if got := codeOf(t, s, "a"); got != "scheduled" {
		t.Errorf("the cache changed before a refresh: a is %q", got)
	}
	r.RunOnce(time.Now(), slog.New(slog.DiscardHandler))
	if got := codeOf(t, s, "a"); got != "succeeded" {
		t.Errorf("after the tick a is %q, want succeeded", got)
	}
}

func TestResultsCacheFailuresAndGoneProjects(t *testing.T) {
	s, f := newFakeService(t)
	f.set("a", "building", 2)
	f.set("b", "building", 2)
	if err := s.RefreshResults(false); err != nil {
		t.Fatal(err)
	}
	f.set("a", "succeeded", 2)
	f.failing["a"] = true
	if err := s.RefreshResults(false); err == nil {
		t.Error("a failing project's read was not reported")
	}
	if got := codeOf(t, s, "a"); got != "building" {
		t.Errorf("a failed read lost a's last results: %q", got)
	}
	f.mu.Lock()
	f.failing["a"] = false
	delete(f.projects, "b") // gone (or hidden from the explorer's identity)
	f.mu.Unlock()
	// The mark did not move, but the failed refresh asks for another one.
	if err := s.RefreshResults(false); err != nil {
		t.Fatal(err)
	}
	if got := codeOf(t, s, "a"); got != "succeeded" {
		t.Errorf("the retry left a at %q", got)
	}
	if s.Follows("b") {
		t.Error("a gone project stayed in the cache")
	}
	if _, err := s.BuildResults("b", ResultFilter{}); err == nil {
		t.Error("a gone project still answers")
	}
}

func TestResultsCacheFollowPatterns(t *testing.T) {
	s, f := newFakeService(t, "Pocket:*", "home:?ob")
	for _, name := range []string{"Pocket:1.0", "Pocket:1.0:Update", "home:bob", "home:alice", "devel:tools"} {
		f.set(name, "succeeded", 1)
	}
	got, err := s.FollowedProjects()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Pocket:1.0", "Pocket:1.0:Update", "home:bob"}; !slices.Equal(got, want) {
		t.Errorf("followed %v, want %v", got, want)
	}
	if err := (&Service{}).UseBackend(f, []string{"[a-"}); err == nil {
		t.Error("a bad pattern was accepted")
	}
}

func TestResultsFilterRules(t *testing.T) {
	s, f := newFakeService(t)
	f.set("a", "failed", 4)
	for _, c := range []struct {
		f    ResultFilter
		fail bool
	}{
		{ResultFilter{}, false},
		{ResultFilter{LastBuild: "0"}, false},
		{ResultFilter{LastBuild: "1"}, true},
		{ResultFilter{LastBuild: "yes"}, true},
		{ResultFilter{OldState: "abc"}, true},
		{ResultFilter{Codes: []string{"failed", "nope"}}, true},
		{ResultFilter{Codes: []string{"succeeded"}}, false},
	} {
		_, err := s.BuildResults("a", c.f)
		if (err != nil) != c.fail {
			t.Errorf("%+v: err %v, want failure %v", c.f, err, c.fail)
		}
	}
	res, _ := s.BuildResults("a", ResultFilter{Codes: []string{"succeeded"}})
	if len(res.Results) != 1 || len(res.Results[0].Statuses) != 0 {
		t.Errorf("status=succeeded on a failed project: %+v", res)
	}
	full, _ := s.BuildResults("a", ResultFilter{})
	if len(full.Results[0].Statuses) != 4 {
		t.Errorf("a filtered read changed the cache: %+v", full)
	}
}

// TestResultsCacheReadsDuringRefreshes: readers see whole snapshots (every package of a
// project with one code) while refreshes swap them; run with -race.
func TestResultsCacheReadsDuringRefreshes(t *testing.T) {
	s, f := newFakeService(t)
	f.set("a", "building", 50)
	if err := s.RefreshResults(false); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				res, err := s.BuildResults("a", ResultFilter{})
				if err != nil {
					t.Error(err)
					return
				}
				st := res.Results[0].Statuses
				for _, x := range st {
					if x.Code != st[0].Code {
						t.Errorf("a snapshot mixes %s and %s", st[0].Code, x.Code)
						return
					}
				}
			}
		}()
	}
	for i := range 200 {
		f.set("a", []string{"building", "succeeded"}[i%2], 50)
		if err := s.RefreshResults(false); err != nil {
			t.Error(err)
		}
	}
	close(stop)
	wg.Wait()
}
