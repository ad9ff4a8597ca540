package explorersvc

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/fault"
)

// errNoBackend answers the build-results questions of a service that was given no backend
// (UseBackend); serve always gives it one.
var errNoBackend = errors.New("the explorer has no build backend configured")

// StatusCodes are the package status codes a result list can show (OBS's buildresult.rng),
// the values ResultFilter.Codes may name.
var StatusCodes = []string{"succeeded", "failed", "unresolvable", "broken", "blocked", "scheduled",
	"dispatching", "building", "signing", "finished", "disabled", "excluded", "locked", "deleting", "unknown"}

// ResultFilter is what GET /api/projects/<p>/_result asks for: empty lists match everything.
type ResultFilter struct {
	Repositories, Archs []string
	// Codes keeps only the package statuses with one of these codes (status=); a result
	// (repository and arch) stays even when none of its packages is left, as its state still says
	// something.
	Codes []string
	// LastBuild and OldState are the request's lastbuild= and oldstate= as sent ("" when
	// absent). The build API's meanings — the last finished build instead of the current job,
	// and waiting for a change of the result list's state — need the backend's live data; the
	// seed says neither is supported with a cache, and the explorer always answers from its
	// cache, so asking for either is refused (lastbuild=0, which asks for nothing, passes).
	LastBuild, OldState string
}

// check applies the filter's rules.
func (f ResultFilter) check() error {
	if f.LastBuild != "" && f.LastBuild != "0" {
		return fault.Invalid("lastbuild_unsupported", "lastbuild is not supported: the build results are answered from the explorer's cache, which keeps only the current results")
	}
	if f.OldState != "" {
		return fault.Invalid("oldstate_unsupported", "oldstate is not supported: the build results are answered from the explorer's cache, which does not wait for a change")
	}
	for _, code := range f.Codes {
		if !slices.Contains(StatusCodes, code) {
			return fault.Invalid("invalid_status", "unknown status '%s': one of %s", code, strings.Join(StatusCodes, ", "))
		}
	}
	return nil
}

// BuildResults answers a project's build results from the cache, filtered by f. A project
// that does not exist, is hidden from the backend's identity or is not followed is not found,
// with one message for all three, so the answer does not tell a hidden project from a missing
// one. The answer shares the cache's values: callers must not modify it.
func (s *Service) BuildResults(project string, f ResultFilter) (ProjectResults, error) {
	if err := f.check(); err != nil {
		return ProjectResults{}, err
	}
	snap, err := s.resultsSnapshot()
	if err != nil {
		return ProjectResults{}, err
	}
	p := snap.projects[project]
	if p == nil {
		return ProjectResults{}, fault.NotFound("unknown_project", "project '%s' not found", project)
	}
	return p.Narrow(f), nil
}

// Narrow is p with only the repositories, arches and status codes f names (an empty list
// names all); a result stays even when none of its packages is left, as its state still says
// something. With nothing to narrow it is p itself, Version and all; otherwise the answer is a
// new one (Version 0) that shares p's unchanged results.
func (p ProjectResults) Narrow(f ResultFilter) ProjectResults {
	if len(f.Repositories) == 0 && len(f.Archs) == 0 && len(f.Codes) == 0 {
		return p
	}
	out := ProjectResults{Project: p.Project}
	for _, r := range p.Results {
		if !pick(f.Repositories, r.Repository) || !pick(f.Archs, r.Arch) {
			continue
		}
		if len(f.Codes) > 0 {
			var kept []PackageStatus
			for _, st := range r.Statuses {
				if slices.Contains(f.Codes, st.Code) {
					kept = append(kept, st)
				}
			}
			r.Statuses = kept
		}
		out.Results = append(out.Results, r)
	}
	return out
}

// pick reports whether a filter list lets v through (an empty list lets everything through).
func pick(list []string, v string) bool { return len(list) == 0 || slices.Contains(list, v) }

// BackendConfiguration is the build backend's configuration (GET /api/backend-config); an
// error of the backend is the seed's 500 "configuration could not be fetched", wrapped (%w) so
// that a remote backend's own kind shows through — one that did not answer in time is 504.
func (s *Service) BackendConfiguration(ctx context.Context) (BackendConfig, error) {
	if s.backend == nil {
		return BackendConfig{}, errNoBackend
	}
	conf, err := s.backend.Configuration(ctx)
	if err != nil {
		return BackendConfig{}, fmt.Errorf("the build backend's configuration could not be fetched: %w", err)
	}
	return conf, nil
}
