package explorersvc

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// TestFollowProductsRebuildConcurrentSearches: while the farm rebuilds a product back and forth
// (Build1.1 with 45 packages, Build1.2 with 30, from the same product package) and the
// follower imports each rebuild, searches see exactly one of the two builds, whole: never both
// (the old build removed after the new one was imported) and never neither (removed before).
func TestFollowProductsRebuildConcurrentSearches(t *testing.T) {
	e, b := newFollowEnv(t)
	const older, newer = "Pocket-1.0-x86_64-Build1.1", "Pocket-1.0-x86_64-Build1.2"
	builds := []publishedMedium{medium(productsProject, older, 45), medium(productsProject, newer, 30)}
	want := map[string]int{older: 45, newer: 30}
	b.publish(productsProject, builds[0])
	e.tick()
	if n := productPackages(t, e.db, older); n != 45 {
		t.Fatalf("the first build has %d packages imported", n)
	}

	const rebuilds = 40
	var stop atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	report := func(err error) {
		select {
		case errs <- err:
		default:
		}
	}
	wg.Go(func() {
		defer stop.Store(true)
		for i := 1; i <= rebuilds && len(errs) == 0; i++ {
			b.publish(productsProject, builds[i%2])
			if err := e.im.RefreshResults(false); err != nil {
				report(err)
				return
			}
			if err := e.im.followProducts(context.Background(), false); err != nil {
				report(err)
				return
			}
		}
	})
	var searches atomic.Int64
	for range 4 {
		wg.Go(func() {
			for !stop.Load() {
				all, err := e.im.SearchPackages("", false)
				if err != nil {
					report(err)
					return
				}
				seen := map[string]int{}
				for _, entry := range all.Entries {
					seen[entry.Product.FullName]++
				}
				if (seen[older] == 0) == (seen[newer] == 0) {
					report(fmt.Errorf("a search saw %d packages of %s and %d of %s: both or neither", seen[older], older, seen[newer], newer))
					return
				}
				for name, n := range seen {
					if n != want[name] {
						report(fmt.Errorf("a search saw %d packages of %s, which has %d", n, name, want[name]))
						return
					}
				}
				searches.Add(1)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d rebuilds, %d searches", rebuilds, searches.Load())
	checkInStep(t, e)
	if got := sources(t, e); got[older] != farmSourceOf || got[newer] != "" {
		t.Errorf("after an even number of rebuilds: %v", got)
	}
}
