package buildapi

import (
	"log/slog"
	"net/netip"

	"github.com/pocketforge/pocketforge/buildsvc/search"
	"github.com/pocketforge/pocketforge/domains"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/buildsvc/farm"
	"github.com/pocketforge/pocketforge/buildsvc/requests"
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
	// Build is the build service's domain (domains.NewBuild): the core, the farm, the requests
	// and the searches.
	Build *domains.Build
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
	// Svc is the build service's core, Farm the build farm (the /build, /published and binary
	// routes), Requests the requests and reviews (/request), Search the searches (/search):
	// the parts of Deps.Build, each handler calling the one it needs.
	Svc      *buildsvc.Service
	Farm     *farm.Farm
	Requests *requests.Service
	Search   *search.Service
	sessions *sessionStore
}
