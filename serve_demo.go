package main

import (
	"context"
	"slices"
	"time"

	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/fixtures"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// demoProductsCheck names the background readiness condition of a fresh demo world: the farm
// builds the Pocket 1.0 products after the appliance is ready (about ten build times: the
// packages they ship build first), and the explorer shows them once they are published.
const demoProductsCheck = "demo-products"

// watchDemoProducts reports, while this start loaded the demo world's products (the
// build-products set), whether the explorer holds them yet: readyz lists the condition as
// background (it never holds readiness back) until it is met, then met.
func watchDemoProducts(ctx context.Context, db *store.DB, ready *kit.Readiness, rep fixtures.Report) {
	if !slices.Contains(rep.Applied, "build-products") {
		return
	}
	built := func() bool {
		ok := false
		_ = db.View(func(tx kv.Tx) error { ok = fixtures.DemoProductsBuilt(tx); return nil })
		return ok
	}
	ready.SetBackground(demoProductsCheck, false)
	go func() {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for !built() {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
		ready.SetBackground(demoProductsCheck, true)
	}()
}
