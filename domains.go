package main

import (
	"fmt"
	"log/slog"

	"github.com/pocketforge/pocketforge/api"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/explorersvc/remote"
	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/search"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// appDomains are the three APIs' domains. serve builds them after the store and before the
// workers and the HTTP app, which both call them; they hold no goroutines of their own but the
// cloud's sqldb listeners, which close stops.
type appDomains struct {
	build    *domains.Build
	cloud    *cloudsvc.Service
	explorer *explorersvc.Service
	// remote is the remote build service the explorer reads (--explorer-backend), nil when it
	// reads this appliance's own: serve hands it to the app, so the proxy forwards through the
	// same client.
	remote *remote.Client
	// close releases what the domains opened (the cloud's sqldb listeners, the explorer's search
	// index); serve calls it after the HTTP app and the workers stopped, before the store closes.
	close func()
}

// closeAll stops the cloud's sqldb instances, then closes what d.close releases.
func (d *appDomains) closeAll() {
	_ = d.cloud.Close() // stopping listeners does not fail
	d.close()
}

// openDomains builds the domains over db. The explorer's search index is opened beside the
// data file (<data>.index, a directory; in memory for --ephemeral) and rebuilt when it is
// missing, damaged or behind the store. url is the external URL absolute links start with.
func openDomains(cfg *config.Config, db *store.DB, clk clock.Clock, log *slog.Logger, url string) (*appDomains, error) {
	d := &appDomains{
		build: domains.NewBuild(db, clk, log, domains.BuildOptionsOf(cfg)),
		cloud: cloudsvc.New(db, clk, log, api.CloudOptions(cfg, func() string { return url })),
		close: func() {},
	}
	backend, builds, remote, err := explorerBackend(cfg, d.build, db, clk, url)
	if err != nil {
		return nil, err
	}
	d.remote = remote
	if cfg.Ephemeral {
		d.explorer = explorersvc.NewMemory(db, clk.Now, log)
		d.explorer.Builds, d.explorer.GitOrg = builds, cfg.ExplorerGitOrg
		return d, d.explorer.UseBackend(backend, cfg.ExplorerFollow)
	}
	ix, _, err := search.Open(db.Path() + ".index")
	if err != nil {
		return nil, err
	}
	d.explorer = &explorersvc.Service{Store: db, Index: ix, Now: clk.Now, Log: log,
		Builds: builds, GitOrg: cfg.ExplorerGitOrg}
	if err := d.explorer.EnsureIndex(false); err != nil {
		ix.Close()
		return nil, fmt.Errorf("explorer search index: %w", err)
	}
	d.close = func() { ix.Close() }
	return d, d.explorer.UseBackend(backend, cfg.ExplorerFollow)
}

// explorerBackend is where the explorer reads build results, fork builds and the backend
// configuration: this appliance's build service in process, or with --explorer-backend a
// remote one over HTTP (polled every --explorer-poll), through the client the proxy forwards
// with. The local one reads as an anonymous non-member, so projects with access restrictions
// stay out of the explorer.
func explorerBackend(cfg *config.Config, build *domains.Build, db *store.DB, clk clock.Clock, url string) (explorersvc.Backend, explorersvc.BuildResults, *remote.Client, error) {
	if cfg.ExplorerBackend == "" {
		return build.Backend(db, buildstore.Person{}, func() string { return url }), build.Builds(buildstore.Person{}), nil, nil
	}
	client, err := api.ExplorerRemote(cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	rb := &remote.Backend{Client: client, Poll: cfg.ExplorerPoll, Now: clk.Now}
	return rb, rb, client, nil
}

// workers are the domains' clock jobs on one runner, in a fixed order: the cloud's (invoices,
// transfers, databases), the build service's (the sweep of uploads never committed, the
// download counters), the farm's (in the background), the requests' (those accepted at the
// time set for them), the explorer's (the --spdx-dir watcher).
func (d *appDomains) workers(cfg *config.Config) *jobs.Runner {
	r := &jobs.Runner{}
	d.cloud.RegisterJobs(r)
	d.build.RegisterJobs(r)
	d.explorer.RegisterJobs(r, cfg.SPDXDir, cfg.SPDXInterval)
	return r
}
