package explorersvc

import (
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// ProxyGate decides which build-service projects the explorer's read-only proxy may reach:
// the projects the explorer follows. Until the results cache keeps its own follow list, the
// default list (every project that is not access-restricted) is decided by the build
// service's read protection for a person who holds no role anywhere — the same set, and the
// same rule the build API applies, never a second copy of it. A project the build service does
// not know is left to the build API to refuse (its own 404 unknown_project).
type ProxyGate struct {
	// Build is the build service the proxy forwards to.
	Build *buildsvc.Service
}

// nonMember is nobody in particular: no login, no role, no group (logins are never empty).
var nonMember = buildstore.Person{}

// Reachable is nil for a project the proxy may forward to, otherwise the build service's 404
// unknown_project, the answer a missing project gets, so a restricted one cannot be told
// apart from a missing one.
func (g ProxyGate) Reachable(project string) error {
	return g.Build.GuardProject(nonMember, project)
}
