// Package appliancesvc owns the rules of the operator's endpoints (/_appliance) that are not
// HTTP: who holds the bootstrap token, and how guessing it is throttled. The token's hash lives
// in store/appliance; the HTTP layer (api/admin) reads the bearer token and the client IP and
// renders the answer.
package appliancesvc

import (
	"errors"
	"time"

	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/appliance"
	"go.etcd.io/bbolt"
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

// Service checks the operator's credentials on one store.
type Service struct {
	db      *store.DB
	guesses *ratelimit.Guesses
}

// New returns the appliance's domain over db, its throttle reading time from now (the
// appliance clock, so moving the dev clock ends a lock, as it does the sign-in locks).
func New(db *store.DB, now func() time.Time) *Service {
	return &Service{db: db, guesses: ratelimit.NewGuesses(now, tokenLockPolicy)}
}

// CheckToken lets the bearer of token in from the client address ip: nil for the bootstrap
// token, ErrBadToken for any other, and a *ratelimit.LockedError (429 with Retry-After) while ip
// is locked by the throttle above, whatever the token. The token is compared in constant time
// (appliance.CheckBootstrapToken: SHA-256, then subtle.ConstantTimeCompare) and always, also
// while locked, so the time of an answer says nothing either.
func (s *Service) CheckToken(token, ip string) error {
	var right bool
	_ = s.db.View(func(tx *bbolt.Tx) error { right = appliance.CheckBootstrapToken(tx, token); return nil })
	if err := s.guesses.Guess(ip, right); err != nil {
		return err
	}
	if !right {
		return ErrBadToken
	}
	return nil
}
