package cloudsvc

import (
	"errors"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Client returns OAuth client id, whatever its account (the login server serves every client).
func (s *Service) Client(id string) (cloudstore.Client, error) {
	var cl cloudstore.Client
	err := s.db.View(func(tx kv.Tx) (err error) { cl, err = cloudstore.GetClient(tx, id); return })
	return cl, err
}

// ExchangeCode trades an authorization code for tokens (RFC 6749 §4.1.3, with PKCE). A refusal
// is a *OAuthError.
func (s *Service) ExchangeCode(in cloudstore.Exchange) (cloudstore.Issued, error) {
	now := s.clk.Now()
	return s.issue(func(tx kv.Tx) (cloudstore.Issued, error) { return exchangeCode(tx, in, now) })
}

// RefreshToken trades a refresh token of client clientID for new tokens. A refusal is a
// *OAuthError.
func (s *Service) RefreshToken(clientID, secret, refresh string) (cloudstore.Issued, error) {
	now := s.clk.Now()
	return s.issue(func(tx kv.Tx) (cloudstore.Issued, error) {
		return refreshToken(tx, clientID, secret, refresh, now)
	})
}

// issue runs a token grant in a write transaction. A refusal (an OAuthError) still commits the
// transaction — a reused code's revocation of the tokens it issued must stick — and is returned.
func (s *Service) issue(grant func(tx kv.Tx) (cloudstore.Issued, error)) (cloudstore.Issued, error) {
	var issued cloudstore.Issued
	var refusal error
	err := s.db.Write(func(tx kv.Tx) error {
		var err error
		issued, err = grant(tx)
		var oe *OAuthError
		if refusal = nil; errors.As(err, &oe) {
			refusal = err
			return nil
		}
		return err
	})
	if err == nil {
		err = refusal
	}
	return issued, err
}

// ExpireClientToken ends one of client clientID's tokens; the client must prove itself with its
// secret (invalid_client otherwise).
func (s *Service) ExpireClientToken(clientID, secret, token string) error {
	return s.db.Write(func(tx kv.Tx) error {
		cl, err := cloudstore.GetClient(tx, clientID)
		if err != nil || !cl.CheckSecret(secret) {
			return &OAuthError{Code: "invalid_client", Description: "unknown client or wrong client_secret"}
		}
		return revokeClientToken(tx, cl.ID, token)
	})
}

// RevokeClientToken ends an access or refresh token of client clientID (RFC 7009); an unknown
// token is not an error. The secret is optional (public clients have none), but a wrong one is
// refused.
func (s *Service) RevokeClientToken(clientID, secret, token string) error {
	return s.db.Write(func(tx kv.Tx) error {
		cl, err := cloudstore.GetClient(tx, clientID)
		if err != nil {
			return &OAuthError{Code: "invalid_client", Description: "unknown client_id"}
		}
		if secret != "" && !cl.CheckSecret(secret) {
			return &OAuthError{Code: "invalid_client", Description: "wrong client_secret"}
		}
		return revokeClientToken(tx, cl.ID, token)
	})
}

// AuthGrant is what an approved authorization request asks for.
type AuthGrant struct {
	Client cloudstore.Client
	// Implicit is the implicit flow (response_type=token): an access token, no code.
	Implicit bool
	Scopes   string // canonical
	// RedirectURI is the redirect_uri the request named, "" when it named none (the registered
	// one is used). A code's token request must name the same one when one was named (RFC 6749
	// §4.1.3).
	RedirectURI string
	Challenge   string // PKCE S256 challenge ("" for none)
}

// Authorize signs username in with password from ip (under the login throttle: a
// *ratelimit.LockedError while the username or the IP is locked), records the login, and issues
// what g asks for: a code (code flow) or an access token (implicit flow), in one transaction. A
// wrong username or password is ErrLoginFailed.
func (s *Service) Authorize(username, password, ip string, g AuthGrant) (code, access string, err error) {
	checked, err := s.signIn(username, password, ip)
	if err != nil {
		return "", "", err
	}
	now := s.clk.Now()
	err = s.db.Write(func(tx kv.Tx) error {
		u, err := stillSignedIn(tx, checked)
		if err != nil {
			return err
		}
		if _, err := cloudstore.RecordLogin(tx, u, ip, now); err != nil {
			return err
		}
		if g.Implicit {
			issued, err := issueOAuth(tx, g.Client, u.Username, g.Scopes, false, now)
			access = issued.Access
			return err
		}
		code, err = issueCode(tx, cloudstore.Code{ClientID: g.Client.ID, Username: u.Username, Scopes: g.Scopes,
			RedirectURI: g.RedirectURI, Challenge: g.Challenge}, now)
		return err
	})
	return code, access, err
}
