package farm

import (
	"maps"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// FarmCounts is the simulated farm at one instant, as an operator watches it: how much work
// waits and what state every package's build is in.
type FarmCounts struct {
	// Dirty are the projects queued for the scheduler: changed, not yet planned.
	Dirty int
	// States counts the build statuses by code (buildstore.Code*): scheduled ones wait for a
	// worker, building ones run, blocked ones wait for other packages.
	States map[string]int
	// Workers is how many jobs run at once (--build-workers).
	Workers int
}

// FarmCounts reads the farm's queue lengths and build states. The counts are kept until the
// next commit, so a scraper asking often costs one scan per change, not one per scrape. The
// caller owns the returned map.
func (s *Farm) FarmCounts() (FarmCounts, error) {
	fc, err := s.farmCounts.Get(struct{}{}, func(tx kv.Tx) (FarmCounts, error) {
		fc := FarmCounts{States: map[string]int{}}
		names, _, err := buildstore.DirtyProjects(tx)
		if err != nil {
			return fc, err
		}
		fc.Dirty = len(names)
		err = buildstore.EachStatus(tx, func(_ buildstore.Where, st buildstore.BuildStatus) bool {
			fc.States[st.Code]++
			return true
		})
		return fc, err
	})
	fc.States = maps.Clone(fc.States)
	fc.Workers = s.farmOptions().Workers
	return fc, err
}

// farmCountsMemo caches FarmCounts until the next commit.
type farmCountsMemo = store.Memo[struct{}, FarmCounts]
