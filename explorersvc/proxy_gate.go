package explorersvc

import "github.com/pocketforge/pocketforge/fault"

// ProxyReachable is nil for a project the explorer's read-only build proxy may forward to: a
// project in the results cache (Follows) — followed (--explorer-follow, default every project)
// and readable by the backend's identity, an anonymous non-member, so never one with access
// restrictions. Any other project, restricted, unfollowed or missing alike, gets the build
// service's own 404 for a missing project, so the three cannot be told apart. The cache follows
// the farm every tick: a project created a moment ago is reachable from the next one.
func (s *Service) ProxyReachable(project string) error {
	if s.Follows(project) {
		return nil
	}
	return fault.NotFound("unknown_project", "Project not found: %s", project)
}
