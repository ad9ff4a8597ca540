package explorersvc

import (
	"errors"

	"github.com/pocketforge/pocketforge/fault"
)

// ProxyReachable is nil for a project the explorer's read-only build proxy may forward to: a
// project in the results cache (Follows) — followed (--explorer-follow, default every project)
// and readable by the backend's identity, an anonymous non-member, so never one with access
// restrictions. Any other project, restricted, unfollowed or missing alike, gets the build
// service's own 404 for a missing project, so the three cannot be told apart. The cache follows
// the farm every tick: a project created a moment ago is reachable from the next one. A cache
// that could not be filled at all (a remote backend that is down or slow) is its error — the
// proxy's 500 or 504, not a 404 that would say the project is gone.
func (s *Service) ProxyReachable(project string) error {
	snap, err := s.resultsSnapshot()
	if err != nil && !errors.Is(err, errNoBackend) {
		return err
	}
	if snap != nil {
		if _, ok := snap.projects[project]; ok {
			return nil
		}
	}
	return fault.NotFound("unknown_project", "Project not found: %s", project)
}
