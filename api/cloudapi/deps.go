package cloudapi

import (
	"net/netip"

	"log/slog"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// Deps is what the cloud API works on.
type Deps struct {
	// Cloud is the cloud domain the handlers call (domains.Open builds it; Bind refuses to run
	// without it).
	Cloud *cloudsvc.Service
	Store *store.DB
	Clock clock.Clock
	Log   *slog.Logger
	// ExternalURL is the base of every absolute URL emitted (redirects, thumbnail and setup links).
	ExternalURL func() string
	// RateScale multiplies every rate limit; 0 turns them off.
	RateScale float64
	// Limiter counts requests for the rate limits.
	Limiter *ratelimit.Limiter
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names the client
	// (--trusted-proxies): the per-IP rate limits and the login server's throttle count per
	// client (kit.ClientIP).
	TrustedProxies []netip.Prefix
}

// api carries Deps to the handlers.
type api struct {
	Deps
	// accountJSON keeps each account record's rendering (getAccountRecord).
	accountJSON recordRenders
	// userPages keeps the pages of each account's users (listUsers).
	userPages keptPages[cloudstore.User]
}

func newAPI(d Deps) *api {
	if d.Cloud == nil {
		panic("cloudapi: no cloud domain (domains.Open builds it)")
	}
	return &api{Deps: d}
}
