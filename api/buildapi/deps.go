package buildapi

import (
	"log/slog"
	"net/netip"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/store"
)

// APIVersion is the build service API version the appliance speaks (the seed's 2.7); every
// response carries it in X-Opensuse-APIVersion, as the real service does.
const APIVersion = "2.7"

// Deps is what the build API works on.
type Deps struct {
	Store *store.DB
	Clock clock.Clock
	Log   *slog.Logger
	// FileLimit is the largest source file a PUT stores (--source-file-limit); 0: no limit
	// beyond the HTTP body limit.
	FileLimit int64
	// Build is the build service's domain; nil: Bind makes one from Store, Clock, Log and
	// FileLimit.
	Build *buildsvc.Service
	// Farm is the build farm over Build; nil: Bind makes one.
	Farm *farm.Farm
	// ExternalURL returns the base of absolute URLs (--external-url; "" or nil: the request's
	// own base), e.g. the repository URLs of a published binary's ymp.
	ExternalURL func() string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names the client
	// (--trusted-proxies): the sign-in throttle counts failures per client (kit.ClientIP).
	TrustedProxies []netip.Prefix
}

// api carries Deps and the authentication caches to the handlers.
type api struct {
	Deps
	// Svc is the domain every handler calls.
	Svc *buildsvc.Service
	// Farm is the build farm over Svc, which the /build, /published and binary routes call.
	Farm     *farm.Farm
	sessions *sessionStore
}
