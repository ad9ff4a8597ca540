package cloud

import (
	"github.com/gofiber/fiber/v2"
)

// prefixes a route is served under (the seed's Versioning section).
type prefixes int

const (
	both       prefixes = iota // /v4 and /v4beta
	stableOnly                 // /v4 only
	betaOnly                   // /v4beta only
)

// Bind registers every route of the cloud API, in one place: its path, its guard (scope area,
// who may call, rate limit) and its handler. The login server (/oauth) is bound by bindOAuth.
func Bind(app fiber.Router, d Deps) {
	a := newAPI(d)
	v4, beta := app.Group("/v4", preflight), app.Group("/v4beta", preflight)
	route := func(on prefixes, method, path string, acc access, h fiber.Handler) {
		guard := a.guard(method, path, acc)
		if on != betaOnly {
			v4.Add(method, path, guard, h)
		}
		if on != stableOnly {
			beta.Add(method, path, guard, h)
		}
	}
	account := func(w who) access { return access{area: "account", who: w} }

	// Users (unrestricted only).
	route(both, "GET", "/account/users", account(unrestrictedOnly), a.listUsers)
	route(both, "POST", "/account/users", account(unrestrictedOnly), a.createUser)
	route(both, "GET", "/account/users/:username", account(unrestrictedOnly), a.getUser)
	route(both, "PUT", "/account/users/:username", account(unrestrictedOnly), a.updateUser)
	route(both, "DELETE", "/account/users/:username", account(unrestrictedOnly), a.deleteUser)
	route(both, "GET", "/account/users/:username/grants", account(unrestrictedOnly), a.getGrants)
	route(both, "PUT", "/account/users/:username/grants", account(unrestrictedOnly), a.putGrants)

	// OAuth clients: account-wide, so restricted users need the account_access grant.
	route(both, "GET", "/account/oauth-clients", account(accountGrant), a.listClients)
	route(both, "POST", "/account/oauth-clients", account(accountGrant), a.createClient)
	route(both, "GET", "/account/oauth-clients/:clientId", account(accountGrant), a.getClient)
	route(both, "PUT", "/account/oauth-clients/:clientId", account(accountGrant), a.updateClient)
	route(both, "DELETE", "/account/oauth-clients/:clientId", account(accountGrant), a.deleteClient)
	route(both, "POST", "/account/oauth-clients/:clientId/reset-secret", account(accountGrant), a.resetClientSecret)
	route(both, "GET", "/account/oauth-clients/:clientId/thumbnail", access{public: true}, a.getThumbnail)
	route(both, "PUT", "/account/oauth-clients/:clientId/thumbnail", account(accountGrant), a.putThumbnail)

	// Profile: the caller's own; any token may view it.
	route(both, "GET", "/profile", access{}, a.getProfile)
	route(both, "GET", "/profile/grants", access{}, a.getProfileGrants)
	route(both, "GET", "/profile/tokens", account(anyUser), a.listTokens)
	route(both, "POST", "/profile/tokens", account(anyUser), a.createToken)
	route(both, "GET", "/profile/tokens/:tokenId", account(anyUser), a.getToken)
	route(both, "PUT", "/profile/tokens/:tokenId", account(anyUser), a.updateToken)
	route(both, "DELETE", "/profile/tokens/:tokenId", account(anyUser), a.deleteToken)

	a.bindOAuth(app)
}

// preflight answers CORS preflight requests for every path (a middleware, not an OPTIONS route,
// so that an unknown path stays a 404 rather than becoming a 405).
func preflight(c *fiber.Ctx) error {
	if c.Method() != fiber.MethodOptions {
		return c.Next()
	}
	corsHeaders(c)
	return c.SendStatus(fiber.StatusOK)
}
