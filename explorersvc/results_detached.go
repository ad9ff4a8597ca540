package explorersvc

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pocketforge/pocketforge/internal/jobs"
)

// Detached is what a Backend implements when its reads may be slow — a remote build service,
// each of whose requests may take up to its timeout. The appliance's jobs run one after
// another on one runner (the build farm's among them), so such a backend's refresh must not
// run there: the cache's clock job then only starts a refresh beside the runner, one at a
// time, and returns. The in-process backend is not detached: its refresh runs on the runner,
// right after the farm's work, so a tick's farm work is in the cache the same tick.
type Detached interface {
	Detached() bool
}

// registerDetached is registerResults for a detached backend; the product follower runs after
// each refresh, in the same goroutine, its errors logged apart from the refresh's. A failing
// refresh is logged when its error differs from the previous one (a backend that is down
// would otherwise log the same line every tick until it is back).
func (s *Service) registerDetached(r *jobs.Runner, c *resultsCache) {
	var running atomic.Bool
	var mu sync.Mutex
	last := ""
	r.AddEveryNode(ResultsJob, func(time.Time) error { // the cache is each node's; following products, the leader's
		if !running.CompareAndSwap(false, true) {
			return nil
		}
		leads := r.Leads()
		go func() {
			defer running.Store(false)
			err := c.refresh(context.Background(), false)
			if !leads {
				return
			}
			if ferr := s.followProducts(context.Background(), false); ferr != nil && s.Log != nil {
				s.Log.Warn("the build backend's product media could not be followed", "err", ferr)
			}
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			mu.Lock()
			changed := msg != last
			last = msg
			mu.Unlock()
			if changed && s.Log != nil {
				if err != nil {
					s.Log.Warn("the build backend's results could not be refreshed", "err", err)
				} else {
					s.Log.Info("the build backend's results are refreshed again")
				}
			}
		}()
		return nil
	})
}
