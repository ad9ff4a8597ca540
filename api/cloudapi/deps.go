package cloudapi

import (
	"time"

	"log/slog"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/internal/jobs"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// Deps is what the cloud API works on.
type Deps struct {
	Store *store.DB
	Clock clock.Clock
	Log   *slog.Logger
	// ExternalURL is the base of every absolute URL emitted (redirects, thumbnail and setup links).
	ExternalURL func() string
	// RateScale multiplies every rate limit; 0 turns them off.
	RateScale float64
	// Limiter counts requests for the rate limits.
	Limiter *ratelimit.Limiter
	// Jobs receives the cloud API's clock-driven background work.
	Jobs *jobs.Runner
	// TransferDelay is how long after acceptance a service transfer completes (0: the default).
	TransferDelay time.Duration
	// DatabaseProvisionTime is how long a new managed database stays provisioning (0: the default).
	DatabaseProvisionTime time.Duration
}

// api carries Deps to the handlers, with the caches of the hot reads: the caller behind a token
// hash, and an account's users. Both are valid until the next committed write (store.Memo).
type api struct {
	Deps
	callers      *store.Memo[string, *caller]
	accountUsers *store.Memo[uint64, []cloudstore.User]
}

func newAPI(d Deps) *api {
	return &api{Deps: d, callers: store.NewMemo[string, *caller](d.Store), accountUsers: store.NewMemo[uint64, []cloudstore.User](d.Store)}
}
