package cloudsvc

import (
	"strings"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Caller is who a bearer token speaks for: the token (its scopes, its expiry) and its user
// (their restriction and grants).
type Caller struct {
	Token cloudstore.Token
	User  cloudstore.User
}

// Authenticate resolves a bearer token's plaintext to its caller: cloudstore.ErrBadToken when
// it is unknown, revoked, its user gone, or it has expired by the clock. It is the hottest read
// of the API (every request), so the token and its user come from a cache valid until the next
// committed write — a revoked token or a deleted user never survives its commit — while expiry
// is checked against the clock on every call, since it needs no write. The returned Caller is
// shared with the cache: callers must not modify it.
func (s *Service) Authenticate(plain string) (*Caller, error) {
	plain = strings.TrimSpace(plain)
	hash := cloudstore.TokenSum(plain)
	cl, err := s.callers.Get(hash, func(tx kv.Tx) (*Caller, error) {
		t, u, err := cloudstore.FindToken(tx, hash[:])
		return &Caller{Token: t, User: u}, err
	})
	if err != nil || cl.Token.Expiry != nil && cl.Token.Expired(s.clk.Now()) { // no clock read for a token that never expires
		return nil, cloudstore.ErrBadToken
	}
	return cl, nil
}

// Who says which users may call an operation, beyond the token's scopes.
type Who int

const (
	// AnyUser is any authenticated user; their grants limit what they see.
	AnyUser Who = iota
	// UnrestrictedOnly is the seed's "unrestricted only": restricted users are refused.
	UnrestrictedOnly
	// AccountGrant lets restricted users in with the account_access grant at the needed level.
	AccountGrant
)

// Allows reports whether c may call an operation that needs the scope area:level ("" area:
// any token) and is open to who. The token's scopes bound every user; a restricted user is
// further bound by who and their account grant.
func (c *Caller) Allows(area, level string, who Who) bool {
	if area != "" && !ScopesAllow(c.Token.Scopes, area, level) {
		return false
	}
	if !c.User.Restricted {
		return true
	}
	switch who {
	case UnrestrictedOnly:
		return false
	case AccountGrant:
		have := c.User.Grants.AccountAccess()
		return have == cloudstore.ReadWrite || have == cloudstore.ReadOnly && level == cloudstore.ReadOnly
	}
	return true
}
