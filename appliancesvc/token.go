// Package appliancesvc owns the rules of the operator's controls that are not HTTP: who holds
// the bootstrap token and how guessing it is throttled (token.go), how far and when the clock
// may move (clock.go), and replacing the data wholesale — reset, reseed, restore — with the hook
// that rebuilds what derives from it, plus the snapshot and the outbox (data.go). The token's
// hash lives in store/appliance. Two front ends call the same Service: the JSON endpoints
// (api/admin, /_appliance) and the operator's page (web/applianceweb, /appliance); each reads
// its own input (a bearer token, a form) and renders the answer.
package appliancesvc

import (
	"errors"
	"sync"
	"time"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/appliance"
	"github.com/pocketforge/pocketforge/store/kv"
)

// ErrBadToken is a bearer token that is not the bootstrap token. Like buildsvc's
// ErrBadCredentials it wraps no store sentinel: the answer is the HTTP layer's 401 challenge.
var ErrBadToken = errors.New("invalid bootstrap token")

// tokenLockPolicy throttles guesses at the bootstrap token per client IP (issue 13: the token
// may be as short as 8 characters, chosen by the operator with --bootstrap-token, and every
// guess was answered at once). Ten wrong tokens in a row are free — room for a script with a
// stale token, or a hand that mistypes, to notice — then the IP is locked for 30 s, each wrong
// token after a lock doubles the lock up to 15 min: past the first hour a guesser gets about 4
// tries an hour, ~100 a day. Per IP, not for the token as a whole: a lock on everyone would let
// any guesser shut the operator out, while here the operator from another address still gets
// in. A locked IP is refused the right token too, or a 429 would merely mean "wrong" and
// guessing would go on at full speed. A right token ends the IP's count (whoever holds it is
// not guessing), and failures are forgotten after an hour without one. Unlike the sign-in
// throttles, a data reset keeps these counts: the token survives the reset, and so do the
// guesses at it.
var tokenLockPolicy = ratelimit.LockPolicy{Free: 10, First: 30 * time.Second, Max: 15 * time.Minute, Forget: time.Hour}

// Service is the operator's domain over one store: one per process, shared by /_appliance and
// the appliance page, so that both count guesses at the token in the same throttle.
type Service struct {
	db        *store.DB
	guesses   *ratelimit.Guesses
	now       func() time.Time
	clock     *clock.Settable
	devClock  bool
	onReplace func()
	world     World
	clockMu   sync.Mutex // orders persist-then-set of concurrent clock moves
}

// Options are the Service's settings; the zero value is a fixed wall clock and no hook.
type Options struct {
	// Clock is the appliance clock: the throttle reads time from it (so moving the dev clock ends
	// a lock, as it does the sign-in locks) and MoveClock moves it. Nil: the wall clock.
	Clock *clock.Settable
	// DevClock lets MoveClock move Clock (--dev-clock).
	DevClock bool
	// OnReplace runs after Reset, Reseed and Restore replaced the data, so derived state (search
	// indexes, caches, the domains' sign-in throttles, rate counts) is rebuilt or forgotten.
	OnReplace func()
	// World is what Reset and Reseed write (domains.DemoWorld).
	World World
}

// New returns the appliance's domain over db.
func New(db *store.DB, o Options) *Service {
	now := time.Now
	if o.Clock != nil {
		now = o.Clock.Now
	}
	if o.OnReplace == nil {
		o.OnReplace = func() {}
	}
	return &Service{db: db, guesses: ratelimit.NewGuesses(now, tokenLockPolicy), now: now,
		clock: o.Clock, devClock: o.DevClock, onReplace: o.OnReplace, world: o.World}
}

// TokenGuessCounts are the wrong bootstrap tokens and the guesses refused while locked since
// start, for the metrics.
func (s *Service) TokenGuessCounts() ratelimit.Counts { return s.guesses.Counts() }

// CheckToken lets the bearer of token in from the client address ip: nil for the bootstrap
// token, ErrBadToken for any other, and a *ratelimit.LockedError (429 with Retry-After) while ip
// is locked by the throttle above, whatever the token. The token is compared in constant time
// (appliance.CheckBootstrapToken: SHA-256, then subtle.ConstantTimeCompare) and always, also
// while locked, so the time of an answer says nothing either.
func (s *Service) CheckToken(token, ip string) error {
	var right bool
	_ = s.db.View(func(tx kv.Tx) error { right = appliance.CheckBootstrapToken(tx, token); return nil })
	if err := s.guesses.Guess(ip, right); err != nil {
		return err
	}
	if !right {
		return ErrBadToken
	}
	return nil
}
