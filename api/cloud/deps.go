package cloud

import (
	"log/slog"

	"github.com/pocketforge/pocketforge/api/cloud/ratelimit"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/store"
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
}

// api carries Deps to the handlers.
type api struct{ Deps }
