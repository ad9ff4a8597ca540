// Package buildlink connects the explorer to this appliance's build service in process: the
// explorer's Backend (its results cache, configuration and project list) and the fork builds'
// results, both read through buildsvc's exported domain functions as the explorer's identity,
// so the build service's read protection decides what the explorer sees. It lives apart from
// both domains because no domain imports another (ARCHITECTURE.md); the root package and the
// tests wire it.
package buildlink

import (
	"context"
	"errors"
	"strings"

	"github.com/pocketforge/pocketforge/buildsvc/search"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Backend is the appliance's own build service as the explorer's backend, reached in
// process through buildsvc's domain functions — the ones the build API's handlers call — with
// the explorer's identity as the caller, so buildsvc's read protection decides what the
// explorer sees, exactly as it would for that person over HTTP.
type Backend struct {
	// Build is the build service's domain.
	Build *buildsvc.Service
	// Farm is the build farm over Build: results, published binaries and product media.
	Farm *farm.Farm
	// Search is the searches over Build: the published binary search.
	Search *search.Service
	// Store is the data file the build service keeps its state in; its commit count is the
	// change mark (Changes).
	Store *store.DB
	// Who is the identity the explorer reads as. The zero Person is an anonymous non-member:
	// every project with <access><disable/> is hidden from it.
	Who buildstore.Person
	// ExternalURL is the base of the appliance's absolute URLs (api_url, and download_url
	// under /published); nil or "" leaves those settings out.
	ExternalURL func() string
}

// Projects names the live projects Who may see (buildsvc's own listing of GET /source).
func (b *Backend) Projects(context.Context) ([]string, error) {
	return b.Build.Projects(b.Who, false)
}

// Results reads a project's results as GET /build/<project>/_result does, for Who.
func (b *Backend) Results(_ context.Context, project string) (explorersvc.ProjectResults, error) {
	list, err := b.Farm.Results(b.Who, project, farm.ResultQuery{})
	if errors.Is(err, store.ErrNotFound) {
		return explorersvc.ProjectResults{}, errors.Join(explorersvc.ErrNoProject, err)
	}
	if err != nil {
		return explorersvc.ProjectResults{}, err
	}
	out := explorersvc.ProjectResults{Project: project, Results: make([]explorersvc.RepoResult, len(list))}
	for i, r := range list {
		rr := explorersvc.RepoResult{Repository: r.Where.Repository, Arch: r.Where.Arch, Code: r.Code, Details: r.Details,
			Dirty: r.Dirty, Statuses: make([]explorersvc.PackageStatus, len(r.Statuses))}
		for j, st := range r.Statuses {
			rr.Statuses[j] = explorersvc.PackageStatus{Package: st.Package, Code: st.Code, Details: st.Details}
		}
		out.Results[i] = rr
	}
	return out, nil
}

// Configuration is the build service's configuration document with what the appliance knows
// beside it: reads need a login (anonymous false), published repositories are served under
// <external URL>/published (download_url) and the build API at the external URL itself
// (api_url). Elements the service has no value for are left out.
func (b *Backend) Configuration(context.Context) (explorersvc.BackendConfig, error) {
	conf, err := b.Build.Configuration()
	if err != nil {
		return explorersvc.BackendConfig{}, err
	}
	base := ""
	if b.ExternalURL != nil {
		base = strings.TrimRight(b.ExternalURL(), "/")
	}
	out := explorersvc.BackendConfig{Schedulers: append([]string{}, conf.Schedulers...)}
	add := func(name, value string) {
		if value != "" {
			out.Settings = append(out.Settings, explorersvc.Setting{Name: name, Value: value})
		}
	}
	add("title", conf.Title)
	add("description", conf.Description)
	add("anonymous", "false")
	add("registration", conf.RegistrationMode())
	if base != "" {
		add("download_url", base+"/published")
		add("api_url", base)
	}
	add("name", conf.Name)
	return out, nil
}

// Changes is the data file's commit count: it moves on every commit, the farm's (a pass of the
// scheduler, a job started or finished, a publish) among them. It is coarser than a farm-only
// mark — any write moves it, and the cache then rereads its projects — but it costs one atomic
// load and can never miss a change.
func (b *Backend) Changes(context.Context) (uint64, error) {
	return b.Store.Version(), nil
}
