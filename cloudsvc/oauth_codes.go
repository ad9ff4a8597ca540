package cloudsvc

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"regexp"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// CodeLifetime is how long an authorization code may be exchanged.
const CodeLifetime = 10 * time.Minute

// issueCode stores a single-use authorization code and returns its plaintext.
func issueCode(tx kv.Tx, c cloudstore.Code, now time.Time) (string, error) {
	plain := store.RandomHex(20)
	c.Expires = now.Add(CodeLifetime)
	return plain, cloudstore.PutCode(tx, plain, c)
}

// exchangeCode trades a code for an access and a refresh token. The client proves itself with
// its secret and, for a code issued with a PKCE challenge, with the verifier too (a public
// client, which cannot keep a secret, with the verifier alone). A code works once: a second use
// is refused and revokes what the first issued (RFC 6749 §4.1.2).
func exchangeCode(tx kv.Tx, in cloudstore.Exchange, now time.Time) (cloudstore.Issued, error) {
	client, err := cloudstore.GetClient(tx, in.ClientID)
	if err != nil {
		return cloudstore.Issued{}, oauthErr("invalid_client", "unknown client_id")
	}
	code, err := cloudstore.GetCode(tx, in.Code)
	if err != nil || code.ClientID != client.ID {
		return cloudstore.Issued{}, oauthErr("invalid_grant", "unknown or expired code")
	}
	if code.Used {
		if t, err := cloudstore.TokenByID(tx, code.TokenID); err == nil {
			_ = cloudstore.RevokeToken(tx, t)
		}
		return cloudstore.Issued{}, oauthErr("invalid_grant", "code already used; the tokens it issued are revoked")
	}
	if !now.Before(code.Expires) {
		return cloudstore.Issued{}, oauthErr("invalid_grant", "code expired")
	}
	// RFC 6749 §4.1.3: a redirect_uri named at authorization must be named again, identical; a
	// code issued for the registered URI (none named) may name that one or none.
	switch {
	case code.RedirectURI != "" && in.RedirectURI != code.RedirectURI:
		return cloudstore.Issued{}, oauthErr("invalid_grant", "redirect_uri must be the one of the authorization request")
	case code.RedirectURI == "" && in.RedirectURI != "" && in.RedirectURI != client.RedirectURI:
		return cloudstore.Issued{}, oauthErr("invalid_grant", "redirect_uri does not match the authorization request")
	}
	if err := proveClient(client, code, in); err != nil {
		return cloudstore.Issued{}, err
	}
	issued, err := issueOAuth(tx, client, code.Username, code.Scopes, true, now)
	if err != nil {
		return cloudstore.Issued{}, err
	}
	code.Used, code.TokenID = true, issued.Token.ID
	return issued, cloudstore.PutCode(tx, in.Code, code)
}

// verifierPattern is RFC 7636's code_verifier: 43–128 unreserved characters.
var verifierPattern = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// proveClient checks the client's secret and PKCE verifier for a code. PKCE proves that the
// one who exchanges is the one who asked; it does not make a confidential client public (RFC
// 6749 §3.2.1, RFC 7636 §1: a confidential client authenticates whatever else it sends), so a
// stolen code and verifier of a confidential client are worth nothing without its secret.
func proveClient(client cloudstore.Client, code cloudstore.Code, in cloudstore.Exchange) error {
	if code.Challenge != "" {
		if !verifierPattern.MatchString(in.CodeVerifier) {
			return oauthErr("invalid_grant", "code_verifier is missing or malformed")
		}
		sum := sha256.Sum256([]byte(in.CodeVerifier))
		if base64.RawURLEncoding.EncodeToString(sum[:]) != code.Challenge {
			return oauthErr("invalid_grant", "code_verifier does not match the code_challenge")
		}
		if client.Public {
			if in.ClientSecret != "" && !client.CheckSecret(in.ClientSecret) {
				return oauthErr("invalid_client", "wrong client_secret")
			}
			return nil
		}
	}
	if !client.CheckSecret(in.ClientSecret) {
		return oauthErr("invalid_client", "wrong or missing client_secret")
	}
	return nil
}

// issueOAuth issues an access token (7200 s) of username to client, with a refresh token when
// refresh is set. The implicit flow gets none.
func issueOAuth(tx kv.Tx, client cloudstore.Client, username, scopes string, refresh bool, now time.Time) (cloudstore.Issued, error) {
	u, err := cloudstore.GetUser(tx, username)
	if err != nil {
		return cloudstore.Issued{}, oauthErr("invalid_grant", "the user no longer exists")
	}
	exp := now.Add(cloudstore.OAuthTokenLifetime)
	t := cloudstore.Token{Kind: cloudstore.KindOAuth, Username: u.Username, AccountID: u.AccountID, Label: client.Label, Scopes: scopes, Expiry: &exp, ClientID: client.ID}
	var out cloudstore.Issued
	if refresh {
		out.Refresh = store.RandomHex(32)
		t.Refresh = cloudstore.HashToken(out.Refresh)
	}
	if out.Access, err = cloudstore.IssueToken(tx, &t, now); err != nil {
		return cloudstore.Issued{}, err
	}
	if refresh {
		if err := cloudstore.IndexRefreshToken(tx, t); err != nil {
			return cloudstore.Issued{}, err
		}
	}
	out.Token = t
	return out, nil
}

// refreshToken trades a refresh token for a new access and refresh token (rotation: the old
// pair stops working). A private client must send its secret.
func refreshToken(tx kv.Tx, clientID, secret, refresh string, now time.Time) (cloudstore.Issued, error) {
	client, err := cloudstore.GetClient(tx, clientID)
	if err != nil {
		return cloudstore.Issued{}, oauthErr("invalid_client", "unknown client_id")
	}
	if !client.Public && !client.CheckSecret(secret) {
		return cloudstore.Issued{}, oauthErr("invalid_client", "wrong or missing client_secret")
	}
	old, err := cloudstore.TokenByRefresh(tx, refresh)
	if err != nil || old.ClientID != client.ID {
		return cloudstore.Issued{}, oauthErr("invalid_grant", "unknown or used refresh_token")
	}
	if err := cloudstore.RevokeToken(tx, old); err != nil {
		return cloudstore.Issued{}, err
	}
	return issueOAuth(tx, client, old.Username, old.Scopes, true, now)
}

// revokeClientToken revokes an access or refresh token issued to clientID (POST /oauth/revoke,
// /oauth/token/expire). An unknown token, or another client's, is not an error (RFC 7009 §2.2).
func revokeClientToken(tx kv.Tx, clientID, token string) error {
	t, err := cloudstore.TokenByPlain(tx, token)
	if err != nil {
		if t, err = cloudstore.TokenByRefresh(tx, token); err != nil {
			return nil
		}
	}
	if t.ClientID != clientID {
		return nil
	}
	return cloudstore.RevokeToken(tx, t)
}

// The login server's password throttle (issue 13: wrong passwords on the sign-in form were
// answered without end, 60 ms of bcrypt each). Five wrong passwords in a row for one username
// (in any case) lock it for 30 s; every further failure after a lock doubles the lock, up to
// 15 min, and a successful sign-in ends the count. One client IP may fail 20 times in a row (over
// any usernames) before the same locks apply to it. A locked username or IP is refused whatever
// the password, without running bcrypt. Failures are forgotten after an hour without one.
var (
	loginLockPolicy = ratelimit.LockPolicy{Free: 5, First: 30 * time.Second, Max: 15 * time.Minute, Forget: time.Hour}
	ipLockPolicy    = ratelimit.LockPolicy{Free: 20, First: 30 * time.Second, Max: 15 * time.Minute, Forget: time.Hour}
)

// Replaced tells the cloud domain that its data was replaced wholesale (POST
// /_appliance/reset, reseed or restore): the login server's throttle forgets every failure and
// lock, of usernames and of client IPs alike. They were guesses at the passwords of users that
// are gone or were loaded afresh; a demo reset to a clean state must not keep demo locked. Only
// the operator, with the bootstrap token, can replace the data, so this gives a guesser nothing.
func (s *Service) Replaced() { s.signIns.Reset() }

// SignInCounts are the login server's (and the console's) sign-ins that failed or were
// refused by the throttle since start, for the metrics (a Replaced does not clear them).
func (s *Service) SignInCounts() ratelimit.Counts { return s.signIns.Counts() }

// signIn checks a username and password for the login server under the throttle: the user, or
// ErrLoginFailed, or a *ratelimit.LockedError while the username or ip is locked.
func (s *Service) signIn(username, password, ip string) (cloudstore.User, error) {
	attempt, err := s.signIns.Begin(strings.ToLower(username), ip)
	if err != nil {
		return cloudstore.User{}, err
	}
	u, err := s.checkLogin(username, password)
	attempt.End(!errors.Is(err, ErrLoginFailed))
	return u, err
}

// checkLogin checks a username and password for the login server; a cancelled account's users
// cannot sign in again. bcrypt runs outside any transaction (it takes tens of milliseconds), and
// runs for an unknown username or a user without a password too, against a dummy hash, so the
// answer's timing does not tell which usernames exist.
func (s *Service) checkLogin(username, password string) (cloudstore.User, error) {
	var u cloudstore.User
	var cancelled bool
	err := s.db.View(func(tx kv.Tx) (err error) {
		if u, err = cloudstore.GetUser(tx, username); err != nil {
			return err
		}
		acct, err := cloudstore.GetAccount(tx, u.AccountID)
		cancelled = err != nil || acct.Cancelled != nil
		return nil
	})
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && len(u.PasswordHash) == 0:
		ratelimit.WastePasswordCheck(password)
		return cloudstore.User{}, ErrLoginFailed
	case err != nil:
		return cloudstore.User{}, err
	case !u.CheckPassword(password) || cancelled:
		return cloudstore.User{}, ErrLoginFailed
	}
	return u, nil
}

// stillSignedIn re-reads, inside the write that acts on a sign-in, the user checkLogin
// approved: deleted, given a new password or cancelled since, it is ErrLoginFailed.
func stillSignedIn(tx kv.Tx, checked cloudstore.User) (cloudstore.User, error) {
	u, err := cloudstore.GetUser(tx, checked.Username)
	if err != nil || !bytes.Equal(u.PasswordHash, checked.PasswordHash) {
		return cloudstore.User{}, ErrLoginFailed
	}
	if acct, err := cloudstore.GetAccount(tx, u.AccountID); err != nil || acct.Cancelled != nil {
		return cloudstore.User{}, ErrLoginFailed
	}
	return u, nil
}
