// Package domains is the one place the domains are built: serve's start, the commands and
// every test harness call it, so a domain is made the same way everywhere (the farm with its
// sizes, the requests and searches on the same core).
package domains

import (
	"log/slog"

	"github.com/pocketforge/pocketforge/appliancesvc"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/attributes"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/buildsvc/maintenance"
	"github.com/pocketforge/pocketforge/buildsvc/requests"
	"github.com/pocketforge/pocketforge/buildsvc/search"
	"github.com/pocketforge/pocketforge/buildsvc/social"
	"github.com/pocketforge/pocketforge/buildsvc/statistics"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/explorersvc/buildlink"
	"github.com/pocketforge/pocketforge/fixtures"
	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Build is the build service's domain: the core (embedded: its operations are Build's) and the
// packages built on it, each over the same core.
type Build struct {
	*buildsvc.Service
	Farm     *farm.Farm
	Requests *requests.Service
	Search   *search.Service
	// Maintenance is the maintenance workflow: mbranch, incidents, patchinfos, channels.
	Maintenance *maintenance.Service
	// Statistics are the /statistics answers: listings by time, activity, ratings, downloads.
	Statistics *statistics.Service
	// Social is comments, tags, messages and status messages.
	Social *social.Service
	// Attributes are the attribute namespaces, definitions and values.
	Attributes *attributes.Service
}

// BuildOptions are the build domain's settings: the core's and the farm's.
type BuildOptions struct {
	Core buildsvc.Options
	Farm farm.Options
}

// BuildOptionsOf are the build domain's settings from cfg: --source-file-limit, and the
// farm's --build-workers and --build-time.
func BuildOptionsOf(cfg *config.Config) BuildOptions {
	return BuildOptions{Core: buildsvc.Options{FileLimit: cfg.SourceFileLimit},
		Farm: farm.Options{Workers: cfg.BuildWorkers, BuildTime: cfg.BuildTime}}
}

// NewBuild builds the build domain over db.
func NewBuild(db *store.DB, clk clock.Clock, log *slog.Logger, o BuildOptions) *Build {
	core := buildsvc.New(db, clk, log, o.Core)
	return &Build{Service: core,
		Farm:        farm.New(core, db, clk, log, o.Farm),
		Requests:    requests.New(core, db, clk, log),
		Search:      search.New(core, db),
		Maintenance: maintenance.New(core),
		Statistics:  statistics.New(core),
		Social:      social.New(core),
		Attributes:  attributes.New(core)}
}

// RegisterJobs adds the build domain's clock jobs to r: the core's (the sweep of uploads never
// committed, the download counters), the farm's (in the background) and the requests' (those
// accepted at the time set for them).
func (b *Build) RegisterJobs(r *jobs.Runner) {
	b.Service.RegisterJobs(r)
	b.Farm.RegisterJobs(r)
	b.Requests.RegisterJobs(r)
}

// Backend is the build domain as the explorer's backend, read in process as who (the zero
// Person: an anonymous non-member, so projects with access restrictions stay out of the
// explorer); url is the external URL absolute links start with.
func (b *Build) Backend(db *store.DB, who buildstore.Person, url func() string) *buildlink.Backend {
	return &buildlink.Backend{Build: b.Service, Farm: b.Farm, Search: b.Search, Store: db, Who: who, ExternalURL: url}
}

// Builds is the build domain as the explorer's reader of fork builds, as who.
func (b *Build) Builds(who buildstore.Person) buildlink.Builds {
	return buildlink.Builds{Farm: b.Farm, Who: who}
}

// DemoWorld is the demo world the appliance domain resets to and reseeds (the fixtures, loaded
// through the domains).
func DemoWorld() appliancesvc.World {
	return appliancesvc.World{Empty: fixtures.Empty, Reseed: fixtures.Reseed}
}
