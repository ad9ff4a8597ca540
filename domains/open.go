package domains

import (
	"fmt"
	"log/slog"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/explorersvc/remote"
	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/search/textindex"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Set is the three APIs' domains over one data file. serve opens it after the store and before
// the workers and the HTTP app, which both call it; it holds no goroutines of its own but the
// cloud's sqldb listeners, which Close stops.
type Set struct {
	Build    *Build
	Cloud    *cloudsvc.Service
	Explorer *explorersvc.Service
	// Remote is the remote build service the explorer reads (--explorer-backend), nil when it
	// reads this appliance's own: the app's /obs proxy forwards through the same client.
	Remote *remote.Client
	// closeIndex closes the explorer's search index (Close).
	closeIndex func()
	// Leader is the singletons' election on a shared store (nil: this process runs them).
	Leader *store.Leader
	// stopFollow ends following other nodes' commits (follow.go).
	stopFollow func()
}

// Open builds the domains over db from cfg. The explorer's search index is opened beside the
// data file (<data>.index, a directory; in memory for --ephemeral) and rebuilt when it is
// missing, damaged or behind the store. url is the external URL absolute links start with.
// With --sqldb-listen off the cloud's sqldb instances stay simulated records (the test
// harnesses' choice: parallel tests share no port range).
func Open(cfg *config.Config, db *store.DB, clk clock.Clock, log *slog.Logger, url func() string, opts ...Option) (*Set, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	copts := CloudOptions(cfg, url)
	if o.leader != nil {
		copts.Leads, copts.LeaderEndpoints = o.leader.Held, func() (string, map[uint64]int) { return leaderEndpoints(o.leader) }
	}
	bopts := BuildOptionsOf(cfg)
	if o.leader != nil && db.Postgres() != nil { // every node's workers take jobs: each its own names
		bopts.Farm.Host = o.leader.Node()
	}
	s := &Set{
		Build:      NewBuild(db, clk, log, bopts),
		Cloud:      cloudsvc.New(db, clk, log, copts),
		closeIndex: func() {},
		Leader:     o.leader,
	}
	backend, builds, client, err := explorerBackend(cfg, s.Build, db, clk, url, o.remote)
	if err != nil {
		return nil, err
	}
	s.Remote = client
	if cfg.Ephemeral {
		s.Explorer = explorersvc.NewMemory(db, clk.Now, log)
		s.Explorer.Builds, s.Explorer.GitOrg = builds, cfg.ExplorerGitOrg
		s.closeIndex = func() { s.Explorer.Index.Close() }
		return s, s.Explorer.UseBackend(backend, cfg.ExplorerFollow)
	}
	ix, _, err := textindex.Open(db.Path() + ".index")
	if err != nil {
		return nil, err
	}
	s.Explorer = &explorersvc.Service{Store: db, Index: ix, Now: clk.Now, Log: log,
		Builds: builds, GitOrg: cfg.ExplorerGitOrg}
	if err := s.Explorer.EnsureIndex(false); err != nil {
		ix.Close()
		return nil, fmt.Errorf("explorer search index: %w", err)
	}
	s.closeIndex = func() { ix.Close() }
	if db.Postgres() != nil {
		s.follow(db, log)
	}
	return s, s.Explorer.UseBackend(backend, cfg.ExplorerFollow)
}

// Option changes how Open builds the domains (the tests' settings).
type Option func(*options)

type options struct {
	remote *remote.Client
	leader *store.Leader
}

// WithLeader has the singletons' election decide where the sqldb listeners run (serve's, on a
// shared store; without it this process runs them).
func WithLeader(l *store.Leader) Option { return func(o *options) { o.leader = l } }

// WithRemote has the explorer read --explorer-backend through client instead of one Open makes
// (a test's short timeout).
func WithRemote(client *remote.Client) Option { return func(o *options) { o.remote = client } }

// Close stops the cloud's sqldb instances, then closes the explorer's search index; serve calls
// it after the HTTP app and the workers stopped, before the store closes.
func (s *Set) Close() {
	if s.stopFollow != nil {
		s.stopFollow()
	}
	_ = s.Cloud.Close() // stopping listeners does not fail
	s.closeIndex()
}

// Workers are the domains' clock jobs on one runner, in a fixed order: the cloud's (invoices,
// transfers, databases), the build domain's (the sweep of uploads never committed, the
// download counters, the farm in the background, the requests accepted at their time), the
// explorer's (the --spdx-dir watcher).
func (s *Set) Workers(cfg *config.Config) *jobs.Runner {
	r := &jobs.Runner{}
	s.Cloud.RegisterJobs(r)
	s.Build.RegisterJobs(r)
	s.Explorer.RegisterJobs(r, cfg.SPDXDir, cfg.SPDXInterval)
	return r
}

// explorerBackend is where the explorer reads build results, fork builds and the backend
// configuration: this appliance's build service in process, or with --explorer-backend a
// remote one over HTTP (polled every --explorer-poll), through the client the proxy forwards
// with. The local one reads as an anonymous non-member, so projects with access restrictions
// stay out of the explorer.
func explorerBackend(cfg *config.Config, build *Build, db *store.DB, clk clock.Clock, url func() string, client *remote.Client) (explorersvc.Backend, explorersvc.BuildResults, *remote.Client, error) {
	if cfg.ExplorerBackend == "" {
		return build.Backend(db, buildstore.Person{}, url), build.Builds(buildstore.Person{}), nil, nil
	}
	if client == nil {
		var err error
		if client, err = ExplorerRemote(cfg); err != nil {
			return nil, nil, nil, err
		}
	}
	rb := &remote.Backend{Client: client, Poll: cfg.ExplorerPoll, Now: clk.Now}
	return rb, rb, client, nil
}

// ExplorerRemote is the client of the remote build service --explorer-backend names, signed in
// as --explorer-backend-user; nil without the flag.
func ExplorerRemote(cfg *config.Config) (*remote.Client, error) {
	if cfg.ExplorerBackend == "" {
		return nil, nil
	}
	return remote.New(cfg.ExplorerBackend, cfg.ExplorerBackendUser, cfg.BackendPassword(), 0)
}

// CloudOptions are the cloud domain's settings from cfg; url is the base of the absolute URLs
// it emits (mails, thumbnails).
func CloudOptions(cfg *config.Config, url func() string) cloudsvc.Options {
	listen := cfg.SQLDBListen
	if listen == "off" {
		listen = ""
	}
	return cloudsvc.Options{TransferDelay: cfg.TransferDelay, DatabaseProvisionTime: cfg.DBProvisionTime, ExternalURL: url,
		SQLListen: listen, SQLMaxInstances: cfg.SQLDBMaxInstances, SQLMaxMemory: cfg.SQLDBMaxMemory, SQLPorts: cfg.SQLDBPorts}
}
