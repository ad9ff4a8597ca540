package cloudapi

import (
	"net/http"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// who says which users may call an endpoint, beyond the token's scopes (cloudsvc.Who).
type who = cloudsvc.Who

const (
	anyUser          = cloudsvc.AnyUser          // any authenticated user; their grants limit what they see
	unrestrictedOnly = cloudsvc.UnrestrictedOnly // the seed's "unrestricted only"
	accountGrant     = cloudsvc.AccountGrant     // restricted users need the account_access grant at the needed level
)

// access is an endpoint's guard, declared next to its route in routes.go.
type access struct {
	area   string // scope area ("account", …); "" = any token (profile)
	level  string // needed scope level; "" = read_only for GET, read_write otherwise
	who    who
	public bool            // no authentication; rate-limited by IP
	limit  ratelimit.Limit // the endpoint's own limit (zero: the default 800/min)
	// deprecated endpoints still answer, with 299 and a warnings array instead of 200.
	deprecated bool
}

// accessOf is the guard of an endpoint whose need the domain declares (cloudsvc.NeedXxx),
// because another front end (the web console) offers the same operation.
func accessOf(n cloudsvc.Need) access { return access{area: n.Area, level: n.Level, who: n.Who} }

// tokenKeyPrefix begins the limiter's key of a token's counters ("token:" and its id).
const tokenKeyPrefix = "token:"

// tokenKey is the limiter's key of token id's counters.
func tokenKey(id uint64) string { return tokenKeyPrefix + strconv.FormatUint(id, 10) }

// endpointLimit is the limit a route counts its requests against: the access's own, or the
// default, named after the route so that each route is counted apart.
func (acc access) endpointLimit(method, pattern string) ratelimit.Limit {
	own := acc.limit
	if own.Max == 0 {
		own = endpointLimit
	}
	own.Name = "endpoint:" + method + " " + pattern
	return own
}

// caller is the authenticated token and user of a request (cloudsvc.Authenticate).
type caller = cloudsvc.Caller

const localCaller = "cloud.caller"

// callerOf returns the request's authenticated caller (set by guard).
func callerOf(c *fiber.Ctx) *caller {
	cl, _ := c.Locals(localCaller).(*caller)
	return cl
}

// Limits of the seed's Limits table.
var (
	generalLimit  = ratelimit.Limit{Name: "general", Max: 1600, Window: 2 * time.Minute}
	endpointLimit = ratelimit.Limit{Max: 800, Window: time.Minute}
)

// guard returns the middleware that enforces a: CORS headers, authentication (401), rate limits
// (429), scopes and grants (403), and then reads the request's body (kit.ReadBody): a request
// refused on its head never has its body read. Authentication only reads the store.
func (a *api) guard(method, pattern string, acc access) fiber.Handler {
	level := acc.level
	if level == "" {
		level = cloudstore.ReadWrite
		if method == fiber.MethodGet {
			level = cloudstore.ReadOnly
		}
	}
	need := cloudsvc.Need{Area: acc.area, Level: level, Who: acc.who}
	accepted := ""
	if acc.area != "" {
		accepted = acc.area + ":" + level
	}
	general, own := generalLimit.Scale(a.RateScale), acc.endpointLimit(method, pattern).Scale(a.RateScale)
	return func(c *fiber.Ctx) error {
		corsHeaders(c)
		if acc.public {
			if err := a.limit(c, "ip:"+kit.ClientIP(c, a.TrustedProxies), own); err != nil {
				return err
			}
			return kit.WithBody(c)
		}
		cl, err := a.authenticate(c)
		if err != nil {
			return err
		}
		kit.SetCaller(c, kit.Caller{User: cl.User.Username, TokenID: cl.Token.ID, TokenPrefix: cl.Token.Prefix})
		if accepted != "" {
			hdrAcceptedScopes.Set(c, accepted)
		}
		var key [32]byte // the limiter copies a key it keeps
		k := strconv.AppendUint(append(key[:0], tokenKeyPrefix...), cl.Token.ID, 10)
		if err := a.limit(c, unsafe.String(&k[0], len(k)), general, own); err != nil {
			return err
		}
		if err := need.Check(cl); err != nil { // 403 "Unauthorized"
			return err
		}
		c.Locals(localCaller, cl)
		if err := kit.ReadBody(c); err != nil { // only now: a refused request's body is never read
			return err
		}
		if acc.deprecated {
			return deprecate(c)
		}
		return c.Next()
	}
}

// authenticate resolves the bearer token: 401 "Invalid Token" when missing, unknown or expired.
func (a *api) authenticate(c *fiber.Ctx) (*caller, error) {
	scheme, token, _ := strings.Cut(c.Get(fiber.HeaderAuthorization), " ")
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		hdrScopes.Set(c, "unknown")
		return nil, kit.Errorf(http.StatusUnauthorized, "Invalid Token")
	}
	cl, err := a.Cloud.Authenticate(token)
	if err != nil {
		hdrScopes.Set(c, "unknown")
		return nil, kit.Errorf(http.StatusUnauthorized, "Invalid Token")
	}
	hdrScopes.Set(c, cl.Token.Scopes)
	return cl, nil
}

// limit counts the request against limits under key and sets the rate-limit headers; 429 when
// one is exhausted.
func (a *api) limit(c *fiber.Ctx, key string, limits ...ratelimit.Limit) error {
	if a.RateScale == 0 {
		return nil
	}
	d := a.Limiter.Take(key, limits...)
	if d.Unlimited {
		return nil
	}
	hdrRateLimit.SetInt(c, int64(d.Limit))
	hdrRateRemaining.SetInt(c, int64(d.Remaining))
	hdrRateReset.SetInt(c, d.Reset.Unix())
	if d.Allowed {
		return nil
	}
	secs := int((d.RetryAfter + time.Second - 1) / time.Second)
	c.Set(fiber.HeaderRetryAfter, strconv.Itoa(max(secs, 1)))
	return kit.Errorf(http.StatusTooManyRequests, "Too many requests")
}

// The headers every cloud answer carries, their names normalized once (kit.Header).
var (
	hdrScopes         = kit.NewHeader("X-OAuth-Scopes")
	hdrAcceptedScopes = kit.NewHeader("X-Accepted-OAuth-Scopes")
	hdrRateLimit      = kit.NewHeader("X-RateLimit-Limit")
	hdrRateRemaining  = kit.NewHeader("X-RateLimit-Remaining")
	hdrRateReset      = kit.NewHeader("X-RateLimit-Reset")
)

// cors are the real API's CORS headers — any origin may call it with a bearer token — made
// once: they are the same on every answer.
var cors = [...]struct {
	name  kit.Header
	value []byte
}{
	{kit.NewHeader(fiber.HeaderAccessControlAllowOrigin), []byte("*")},
	{kit.NewHeader(fiber.HeaderAccessControlAllowHeaders), []byte("Authorization, Origin, X-Requested-With, Content-Type, Accept, X-Filter")},
	{kit.NewHeader(fiber.HeaderAccessControlAllowMethods), []byte("HEAD, GET, OPTIONS, POST, PUT, DELETE")},
	{kit.NewHeader(fiber.HeaderAccessControlExposeHeaders), []byte("X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Status")},
	{kit.NewHeader(fiber.HeaderVary), []byte("Authorization, X-Filter")},
}

// corsHeaders sets the CORS headers on c's answer.
func corsHeaders(c *fiber.Ctx) {
	for _, h := range cors {
		c.Response().Header.SetCanonical(h.name, h.value) // no line break to check for
	}
}
