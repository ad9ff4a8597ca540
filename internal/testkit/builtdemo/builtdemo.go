// Package builtdemo makes, for tests, the demo world as a fresh appliance holds it once its
// first start's work is done: the fixtures loaded, the farm run by a fixed clock until it is
// quiet (the demo packages built, Pocket-1.0-x86_64-Build1.1 and Pocket-1.0-aarch64-Build1.1
// composed and published), and the explorer's follower run once over it, so the farm's
// products are imported beside the shipped Pocket 0.9. Tests of the explorer's API and pages
// read that world in process without waiting for a binary's clock; they make it once per
// test binary (internal/apitest.DataFile) and copy it.
package builtdemo

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/domains"
	"github.com/pocketforge/pocketforge/explorersvc"
	"github.com/pocketforge/pocketforge/fixtures"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// BuildTime is the appliance's default --build-time, which the built world is made with.
const BuildTime = 8 * time.Second

// Load loads the demo world into db at now, builds it and lets the explorer follow the farm
// (see the package doc). The explorer's search index is not kept: an explorer opened on db
// rebuilds it from the store, as serve does at start.
func Load(db *store.DB, now time.Time) error {
	if _, err := fixtures.Ensure(db, false, now); err != nil {
		return err
	}
	log := slog.New(slog.DiscardHandler)
	build, clk, err := RunFarm(db, now)
	if err != nil {
		return err
	}
	im := explorersvc.NewMemory(db, clk.Now, log)
	defer im.Index.Close()
	if err := im.UseBackend(build.Backend(db, buildstore.Person{}, nil), nil); err != nil {
		return err
	}
	if err := im.RefreshResults(true); err != nil {
		return err
	}
	if err := im.FollowProducts(true); err != nil {
		return err
	}
	list, err := im.Products()
	if err != nil {
		return err
	}
	if len(list) != 3 {
		return fmt.Errorf("the built demo world's explorer holds %d products, want 3", len(list))
	}
	return nil
}

// RunFarm runs the demo world's farm over db by a fixed clock from now, a build time a pass,
// until it is quiet (at most 400 passes), and returns the build domain and the clock it ran.
func RunFarm(db *store.DB, now time.Time) (*domains.Build, *clock.Fixed, error) {
	clk := clock.NewFixed(now)
	build := domains.NewBuild(db, clk, nil, domains.BuildOptions{Farm: farm.Options{Workers: 4, BuildTime: BuildTime}})
	for range 400 {
		if err := build.Farm.FarmTick(); err != nil {
			return nil, nil, err
		}
		quiet := false
		db.View(func(tx kv.Tx) error { quiet = buildstore.FarmQuiet(tx); return nil })
		if quiet {
			return build, clk, nil
		}
		clk.Advance(BuildTime)
	}
	return nil, nil, fmt.Errorf("the demo farm is still busy after 400 build times")
}

// SecretProject is a project hidden from non-members (<access><disable/>), maintained by alice
// and building against Pocket:1.0/standard: what the read-protection tests over the built world
// look for.
const SecretProject = "Pocket:secret"

// PutSecretProject writes SecretProject into db.
func PutSecretProject(db *store.DB) error {
	return db.Write(func(tx kv.Tx) error {
		return buildstore.PutProject(tx, buildstore.Project{Name: SecretProject, Title: "hidden",
			Persons: []buildstore.Role{{ID: "alice", Role: "maintainer"}},
			Flags:   []buildstore.Flag{{Name: "access", Status: "disable"}},
			Repositories: []buildstore.Repository{{Name: "standard", Archs: []string{"x86_64"},
				Paths: []buildstore.Path{{Project: "Pocket:1.0", Repository: "standard"}}}}})
	})
}
