package explorersvc

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pocketforge/pocketforge/internal/jobs"
)

// ResultsJob is the name of the clock job that keeps the results cache in step with the farm.
const ResultsJob = "explorer-results"

// The results cache: the build results of every project the explorer follows, as the seed's
// cache daemon keeps them, so /api/projects/<p>/_result (and the badges and the proxy's
// "present in the cache" rule) never wait for the build service. A snapshot is immutable once
// published: a refresh builds a new one beside it and swaps the pointer, so a read is one
// atomic load and never waits for a refresh, and never sees half of one.

// resultsSnapshot is the cache at one moment.
type resultsSnapshot struct {
	mark     uint64                     // Backend.Changes when the refresh began
	projects map[string]*ProjectResults // followed project → its results; never modified
	names    []string                   // the keys of projects, sorted
	retry    bool                       // a project's read failed: refresh next tick even if the mark stays
}

// resultVersions numbers the results of every cache in the process (ProjectResults.Version).
var resultVersions atomic.Uint64

// resultsCache keeps the snapshot and refreshes it; one refresh runs at a time.
type resultsCache struct {
	backend Backend
	follow  []string // patterns (path.Match) of the projects to follow; empty: every one
	snap    atomic.Pointer[resultsSnapshot]
	mu      sync.Mutex // held by a refresh
}

// CheckFollow checks the patterns of --explorer-follow: each a project name or a glob
// (path.Match: *, ?, [a-z]).
func CheckFollow(patterns []string) error {
	for _, p := range patterns {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("%q is not a valid project pattern (%v)", p, err)
		}
	}
	return nil
}

// UseBackend makes b the explorer's build backend and follows the projects matching follow
// (names or path.Match globs; none: every project b may follow). Call it once, before the
// service answers requests and before RegisterJobs; the cache fills on the first read or tick.
func (s *Service) UseBackend(b Backend, follow []string) error {
	if err := CheckFollow(follow); err != nil {
		return err
	}
	s.backend = b
	s.results = &resultsCache{backend: b, follow: append([]string(nil), follow...)}
	s.follower = &productFollower{bad: map[string]string{}}
	return nil
}

// registerResults adds the cache's clock job: every tick it asks the backend for its change
// mark and rereads the followed projects only when the mark moved. serve registers the
// explorer's jobs after the build service's, so a tick's farm work is in the cache the same
// tick. The product follower's job comes right after it and runs when the cache moved
// (products_follow.go): a job of its own, so its failures never stop the cache. A Detached
// backend's refresh and follower run beside the runner instead (registerDetached).
func (s *Service) registerResults(r *jobs.Runner) {
	if s.results == nil {
		return
	}
	c := s.results
	if d, ok := s.backend.(Detached); ok && d.Detached() {
		s.registerDetached(r, c)
		return
	}
	r.AddEveryNode(ResultsJob, func(time.Time) error { return c.refresh(context.Background(), false) }) // each node's own cache
	r.Add(ProductsJob, func(time.Time) error { return s.followProducts(context.Background(), false) })
}

// RefreshResults brings the cache in step with the backend now (only when its change mark
// moved, unless force): for tests, and for callers that just changed the farm.
func (s *Service) RefreshResults(force bool) error {
	if s.results == nil {
		return errNoBackend
	}
	return s.results.refresh(context.Background(), force)
}

// Follows reports whether project is in the results cache: followed, and readable by the
// backend's identity. The read-only proxy reaches only these projects.
func (s *Service) Follows(project string) bool {
	snap, err := s.resultsSnapshot()
	if err != nil {
		return false
	}
	_, ok := snap.projects[project]
	return ok
}

// FollowedProjects names the projects in the results cache, sorted.
func (s *Service) FollowedProjects() ([]string, error) {
	snap, err := s.resultsSnapshot()
	if err != nil {
		return nil, err
	}
	return append([]string(nil), snap.names...), nil
}

// resultsSnapshot is the current snapshot; before the first refresh it fills the cache once
// (every later read answers from a snapshot without waiting). A failed first fill wraps the
// backend's error, so a remote backend that timed out is the API's 504.
func (s *Service) resultsSnapshot() (*resultsSnapshot, error) {
	c := s.results
	if c == nil {
		return nil, errNoBackend
	}
	if snap := c.snap.Load(); snap != nil {
		return snap, nil
	}
	if err := c.refresh(context.Background(), false); err != nil && c.snap.Load() == nil {
		return nil, fmt.Errorf("the build results could not be fetched: %w", err)
	}
	return c.snap.Load(), nil
}

// follows reports whether the patterns pick name.
func (c *resultsCache) follows(name string) bool {
	if len(c.follow) == 0 {
		return true
	}
	for _, p := range c.follow {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// refresh rereads the followed projects when the backend's change mark moved (or force) and
// publishes the new snapshot. A project whose read fails for another reason than being gone
// keeps its previous results (the error is returned and logged by the runner); a project that
// is gone or became hidden leaves the cache.
func (c *resultsCache) refresh(ctx context.Context, force bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.snap.Load()
	mark, err := c.backend.Changes(ctx)
	if err != nil {
		return err
	}
	if old != nil && !force && mark == old.mark && !old.retry {
		return nil
	}
	names, err := c.backend.Projects(ctx)
	if err != nil {
		return err
	}
	next := &resultsSnapshot{mark: mark, projects: map[string]*ProjectResults{}}
	var errs []error
	for _, name := range names {
		if !c.follows(name) {
			continue
		}
		res, err := c.backend.Results(ctx, name)
		switch {
		case errors.Is(err, ErrNoProject):
			continue
		case err != nil:
			errs = append(errs, fmt.Errorf("results of %s: %w", name, err))
			if old != nil && old.projects[name] != nil {
				next.projects[name] = old.projects[name]
			}
			continue
		}
		if old != nil && sameResults(old.projects[name], &res) {
			next.projects[name] = old.projects[name] // unchanged: share it, and its Version
		} else {
			res.Version = resultVersions.Add(1)
			next.projects[name] = &res
		}
	}
	for name := range next.projects {
		next.names = append(next.names, name)
	}
	sort.Strings(next.names)
	next.retry = len(errs) > 0
	c.snap.Store(next)
	return errors.Join(errs...)
}

// sameResults reports whether a holds exactly the results of b.
func sameResults(a, b *ProjectResults) bool {
	if a == nil || b == nil || a.Project != b.Project || len(a.Results) != len(b.Results) {
		return false
	}
	for i := range a.Results {
		x, y := &a.Results[i], &b.Results[i]
		if x.Repository != y.Repository || x.Arch != y.Arch || x.Code != y.Code || x.Details != y.Details ||
			x.Dirty != y.Dirty || len(x.Statuses) != len(y.Statuses) {
			return false
		}
		for j := range x.Statuses {
			if x.Statuses[j] != y.Statuses[j] {
				return false
			}
		}
	}
	return true
}
