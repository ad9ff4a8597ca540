package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/pocketforge/pocketforge/api"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/config"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/fixtures"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/appliance"
	"github.com/pocketforge/pocketforge/store/kv"
)

// serve runs the appliance until ctx ends: it opens the data file (failing fast, with one line,
// when it cannot), listens, loads the demo fixtures while /_appliance/readyz says 503, then
// serves; on ctx's end it stops accepting, lets in-flight requests finish (bounded by
// --shutdown-timeout) and closes the store. listening, when set, is told the external URL once
// the listener is up (tests use it).
func serve(ctx context.Context, cfg *config.Config, stdout, stderr io.Writer, listening func(url string)) error {
	started := time.Now()
	steps := startSteps{last: started}
	lw := newLogWriter(stderr)
	defer lw.Close()
	log := newLogger(cfg, lw)
	lw.setLogger(log)
	for _, w := range cfg.Warnings {
		log.Warn(w)
	}
	resolveMaxConns(cfg, log)
	dieWithGoRun(log)

	db, cleanup, err := openData(cfg)
	if err != nil {
		return err
	}
	defer cleanup()
	clk, creds, err := prepareAppliance(db, cfg)
	if err != nil {
		return err
	}
	steps.done("open")
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %v (choose another --addr)", cfg.Addr, err)
	}
	url := cfg.ExternalURLFor(ln.Addr())
	var dom *domains.Set
	leader := db.NewLeader(func() string { return dom.LeaderNote(url) })
	dom, err = domains.Open(cfg, db, clk, log, func() string { return url }, domains.WithLeader(leader))
	if err != nil {
		ln.Close()
		return err
	}
	defer dom.Close()
	workers := dom.Workers(cfg)
	workers.Gate = leader.Held // on a shared store, one node runs the clock jobs
	leader.OnChange(func(held bool) {
		log.Info("singletons", "leading", held, "node", leader.Node())
		if !held {
			_ = dom.Cloud.ReconcileDatabases(clk.Now()) // the sqldb listeners move to the new leader
		}
	})
	leader.Start()
	defer leader.Stop() // after the workers stopped: the lease goes at once to another node
	checks := []string{"store", "fixtures", "search"}
	if db.Postgres() != nil {
		checks = append(checks, "database")
	}
	ready := kit.NewReadiness(checks...)
	ready.Set("store", true)
	watchDatabase(ctx, db, ready)
	app := api.New(cfg, api.Deps{
		Store: db, Clock: clk, Log: log, AccessLog: kit.NewAccessLog(lw, cfg.LogFormat, cfg.LogLevel), Ready: ready, Journal: kit.NewJournal(cfg.JournalSize), ExternalURL: url,
		OnReplace: func() {
			afterReplace(db, clk, log)
			dom.Cloud.RestartDatabases() // their data was replaced with the file
			if err := dom.Explorer.EnsureIndex(true); err != nil {
				log.Error("rebuilding the explorer search index after a data replacement failed", "err", err)
			}
		},
		Domains: dom,
	})
	steps.done("domains")
	logStart(log, cfg, db, ln.Addr(), url)
	printBanner(stdout, cfg, db, url, creds)
	served := make(chan error, 1)
	go func() { served <- app.Listener(api.Listener(ln, cfg.MaxConnsPerIP, log)) }() // an accept error never ends serve
	if listening != nil {
		listening(url)
	}

	rep, err := fixtures.Ensure(db, cfg.NoFixtures, clk.Now())
	if err != nil {
		_ = app.ShutdownWithTimeout(cfg.ShutdownTimeout)
		return err
	}
	steps.done("fixtures")
	workers.CatchUp(clk.Now(), log) // what came due while stopped (expiries, invoices, database listeners)
	ready.Set("fixtures", true)
	steps.done("catchup")
	if err := dom.Explorer.EnsureIndex(false); err != nil { // the fixtures may have imported products
		_ = app.ShutdownWithTimeout(cfg.ShutdownTimeout)
		return fmt.Errorf("explorer search index: %w", err)
	}
	ready.Set("search", true)
	steps.done("index")
	// The workers start once ready: their first pass catches the build farm up, which readiness
	// does not wait for (a restart waited 50-600 ms for it).
	stopWorkers := workers.Start(time.Second, clk.Now, log)
	defer stopWorkers() // after the HTTP app has stopped, before the index and the store close
	watchDemoProducts(ctx, db, ready, rep)
	log.Info("ready", append([]any{"fixtures", rep.Mode, "loaded", rep.Applied, "ms", time.Since(started).Milliseconds()}, steps.attrs...)...)

	select {
	case <-ctx.Done():
	case err := <-served:
		return fmt.Errorf("serving on %s: %w", ln.Addr(), err)
	}
	log.Info("shutting down", "grace", cfg.ShutdownTimeout.String())
	if err := app.ShutdownWithTimeout(cfg.ShutdownTimeout); err != nil {
		log.Warn("shutdown: in-flight requests cut off", "err", err)
	}
	if err := dom.Build.FlushDownloads(); err != nil { // the last second's downloads, before the store closes
		log.Warn("shutdown: download counters not written", "err", err)
	}
	log.Info("stopped")
	return nil
}

// startSteps times the steps of a start for the "ready" log line (open_ms: the data file and
// credentials; domains_ms: listener, domains, HTTP app; fixtures_ms; catchup_ms: the workers'
// first pass; index_ms), so a slow start says where its time went.
type startSteps struct {
	last  time.Time
	attrs []any
}

func (s *startSteps) done(step string) {
	now := time.Now()
	s.attrs = append(s.attrs, step+"_ms", now.Sub(s.last).Milliseconds())
	s.last = now
}

// afterReplace runs when restore, reset or reseed replaced the data: the bootstrap token is tied
// to whatever demo world is now loaded.
func afterReplace(db *store.DB, clk clock.Clock, log *slog.Logger) {
	if err := db.Write(func(tx kv.Tx) error { return fixtures.Bootstrap(tx, clk.Now()) }); err != nil {
		log.Error("re-linking the bootstrap token after a data replacement failed", "err", err)
	}
	log.Info("data replaced")
}

// openData opens the data file: --data, or a fresh temporary file without fsync for
// --ephemeral, removed again by the returned cleanup, which also closes the store.
//
// With --store, the data of record is the PostgreSQL database and --data the node's replica.
func openData(cfg *config.Config) (*store.DB, func(), error) {
	if cfg.Store != "" {
		if cfg.Ephemeral {
			return nil, nil, errors.New("--ephemeral and --store exclude each other: --ephemeral is a throw-away bbolt file, --store a database its operators keep")
		}
		db, err := store.OpenPostgres(cfg.Store, cfg.Data, store.Options{BatchDelay: cfg.BatchDelay})
		if err != nil {
			return nil, nil, err
		}
		return db, func() { db.Close() }, nil
	}
	path, mode := cfg.Data, store.Strict
	if cfg.Ephemeral {
		f, err := os.CreateTemp("", "pocketforge-ephemeral-*.db")
		if err != nil {
			return nil, nil, fmt.Errorf("ephemeral data file: %w", err)
		}
		f.Close()
		path, mode = f.Name(), store.NoSync
	}
	db, err := store.Open(path, store.Options{Durability: mode, BatchDelay: cfg.BatchDelay})
	if err != nil {
		if cfg.Ephemeral {
			os.Remove(path)
		}
		return nil, nil, err
	}
	return db, func() {
		db.Close()
		if cfg.Ephemeral {
			os.Remove(path)
		}
	}, nil
}

// prepareAppliance restores the dev clock's persisted offset and makes sure the bootstrap token
// and admin password exist (generating them on a first start).
func prepareAppliance(db *store.DB, cfg *config.Config) (*clock.Settable, appliance.Credentials, error) {
	var offset time.Duration
	var creds appliance.Credentials
	err := db.Exclusive(func(tx kv.Tx) (err error) {
		if offset, err = appliance.ClockOffset(tx); err != nil {
			return err
		}
		creds, err = appliance.EnsureCredentials(tx, cfg.BootstrapToken, cfg.AdminPassword)
		return err
	})
	if err != nil {
		return nil, creds, fmt.Errorf("data %s: %w", db.Label(), err)
	}
	return clock.NewSettable(offset), creds, nil
}

// logStart logs where the appliance listens and its effective configuration, secrets masked.
func logStart(log *slog.Logger, cfg *config.Config, db *store.DB, addr net.Addr, url string) {
	attrs := []any{"addr", addr.String(), "external_url", url, "data", db.Label(),
		"durability", db.Durability().String(), "version", version}
	for _, kv := range cfg.Redacted() {
		attrs = append(attrs, slog.String("config."+kv[0], kv[1]))
	}
	log.Info("listening", attrs...)
}

// printBanner tells the person who started the appliance where it is and how to get in. A
// generated secret is printed here once; only its hash is kept.
func printBanner(w io.Writer, cfg *config.Config, db *store.DB, url string, cr appliance.Credentials) {
	fmt.Fprintf(w, "pocketforge %s listening on %s (data: %s)\n", version, url, dataLabel(cfg, db))
	fmt.Fprintln(w, "demo credentials:")
	fmt.Fprintf(w, "  bootstrap token (Authorization: Bearer … for /_appliance): %s\n", secretLine(cr.TokenSource, cr.BootstrapToken, "--bootstrap-token"))
	fmt.Fprintf(w, "  build service user Admin, password: %s\n", secretLine(cr.PasswordSource, cr.AdminPassword, "--admin-password"))
}

func secretLine(source, plain, flag string) string {
	switch source {
	case "generated":
		return plain + "   (generated now, shown once, stored hashed)"
	case "flag":
		return "as set by " + flag
	}
	return "set on the first start, stored hashed (not shown again; " + flag + " sets a new one)"
}

func dataLabel(cfg *config.Config, db *store.DB) string {
	if cfg.Ephemeral {
		return db.Path() + ", ephemeral: removed on exit"
	}
	if cfg.Store != "" {
		return db.Label() + ", replica " + db.Path()
	}
	return db.Path()
}

// watchDatabase keeps readyz's "database" check (a shared store only) in step with the
// database: while this node cannot reach it, readyz and every API answer 503 (in the API's
// error format) and a load balancer sends clients elsewhere; the node recovers by itself.
func watchDatabase(ctx context.Context, db *store.DB, ready *kit.Readiness) {
	if db.Postgres() == nil {
		return
	}
	ready.Set("database", true)
	go func() {
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				st, _ := db.DatabaseStatus()
				ready.Set("database", st.Reachable)
			}
		}
	}()
}
