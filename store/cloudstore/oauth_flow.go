package cloudstore

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"regexp"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// CodeLifetime is how long an authorization code may be exchanged.
const CodeLifetime = 10 * time.Minute

// OAuthError is an RFC 6749 error ("invalid_grant", "invalid_client", "invalid_request", …).
// It wraps ErrInvalid; the API answers invalid_client with 401 and the others with 400.
type OAuthError struct {
	Code        string
	Description string
}

func (e *OAuthError) Error() string { return e.Code + ": " + e.Description }

// Unwrap makes an OAuthError an ErrInvalid.
func (e *OAuthError) Unwrap() error { return store.ErrInvalid }

func oauthErr(code, desc string) error { return &OAuthError{Code: code, Description: desc} }

// Code is an issued authorization code, stored under its SHA-256.
type Code struct {
	ClientID    string    `json:"client_id"`
	Username    string    `json:"username"`
	Scopes      string    `json:"scopes"`
	RedirectURI string    `json:"redirect_uri"`
	Challenge   string    `json:"challenge,omitempty"` // PKCE S256 challenge
	Expires     time.Time `json:"expires"`
	Used        bool      `json:"used"`
	TokenID     uint64    `json:"token_id,omitempty"` // what the exchange issued
}

// IssueCode stores a single-use authorization code and returns its plaintext.
func IssueCode(tx *bbolt.Tx, c Code, now time.Time) (string, error) {
	plain := randomSecret(20)
	c.Expires = now.Add(CodeLifetime)
	return plain, store.Put(tx, store.CloudCodes, HashToken(plain), c)
}

// Exchange is a code-for-token request.
type Exchange struct {
	ClientID, ClientSecret, Code, CodeVerifier, RedirectURI string
}

// Issued is what a token endpoint answers with.
type Issued struct {
	Token   Token
	Access  string
	Refresh string // "" when none is issued
}

// ExchangeCode trades a code for an access and a refresh token. The client proves itself with
// its secret, or — for a code issued with a PKCE challenge — with the verifier. A code works
// once: a second use is refused and revokes what the first issued (RFC 6749 §4.1.2).
func ExchangeCode(tx *bbolt.Tx, in Exchange, now time.Time) (Issued, error) {
	client, err := GetClient(tx, in.ClientID)
	if err != nil {
		return Issued{}, oauthErr("invalid_client", "unknown client_id")
	}
	key := HashToken(in.Code)
	code, err := store.Get[Code](tx, store.CloudCodes, key)
	if err != nil || code.ClientID != client.ID {
		return Issued{}, oauthErr("invalid_grant", "unknown or expired code")
	}
	if code.Used {
		if t, err := TokenByID(tx, code.TokenID); err == nil {
			_ = RevokeToken(tx, t)
		}
		return Issued{}, oauthErr("invalid_grant", "code already used; the tokens it issued are revoked")
	}
	if !now.Before(code.Expires) {
		return Issued{}, oauthErr("invalid_grant", "code expired")
	}
	if in.RedirectURI != "" && in.RedirectURI != code.RedirectURI {
		return Issued{}, oauthErr("invalid_grant", "redirect_uri does not match the authorization request")
	}
	if err := proveClient(client, code, in); err != nil {
		return Issued{}, err
	}
	issued, err := issueOAuth(tx, client, code.Username, code.Scopes, true, now)
	if err != nil {
		return Issued{}, err
	}
	code.Used, code.TokenID = true, issued.Token.ID
	return issued, store.Put(tx, store.CloudCodes, key, code)
}

// verifierPattern is RFC 7636's code_verifier: 43–128 unreserved characters.
var verifierPattern = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// proveClient checks the client's secret or PKCE verifier for a code.
func proveClient(client Client, code Code, in Exchange) error {
	if code.Challenge != "" {
		if !verifierPattern.MatchString(in.CodeVerifier) {
			return oauthErr("invalid_grant", "code_verifier is missing or malformed")
		}
		sum := sha256.Sum256([]byte(in.CodeVerifier))
		if base64.RawURLEncoding.EncodeToString(sum[:]) != code.Challenge {
			return oauthErr("invalid_grant", "code_verifier does not match the code_challenge")
		}
		if in.ClientSecret != "" && !client.CheckSecret(in.ClientSecret) {
			return oauthErr("invalid_client", "wrong client_secret")
		}
		return nil
	}
	if !client.CheckSecret(in.ClientSecret) {
		return oauthErr("invalid_client", "wrong or missing client_secret")
	}
	return nil
}

// issueOAuth issues an access token (7200 s) of username to client, with a refresh token when
// refresh is set.
func issueOAuth(tx *bbolt.Tx, client Client, username, scopes string, refresh bool, now time.Time) (Issued, error) {
	u, err := GetUser(tx, username)
	if err != nil {
		return Issued{}, oauthErr("invalid_grant", "the user no longer exists")
	}
	exp := now.Add(OAuthTokenLifetime)
	t := Token{Kind: KindOAuth, Username: u.Username, AccountID: u.AccountID, Label: client.Label, Scopes: scopes, Expiry: &exp, ClientID: client.ID}
	var out Issued
	if refresh {
		out.Refresh = randomSecret(32)
		t.Refresh = HashToken(out.Refresh)
	}
	if out.Access, err = IssueToken(tx, &t, now); err != nil {
		return Issued{}, err
	}
	if refresh {
		if err := tx.Bucket([]byte(store.CloudRefreshTokens)).Put(t.Refresh, store.Itob(t.ID)); err != nil {
			return Issued{}, err
		}
	}
	out.Token = t
	return out, nil
}

// IssueImplicit issues an access token for the implicit flow: no refresh token.
func IssueImplicit(tx *bbolt.Tx, client Client, username, scopes string, now time.Time) (Issued, error) {
	return issueOAuth(tx, client, username, scopes, false, now)
}

// RefreshToken trades a refresh token for a new access and refresh token (rotation: the old
// pair stops working). A private client must send its secret.
func RefreshToken(tx *bbolt.Tx, clientID, secret, refresh string, now time.Time) (Issued, error) {
	client, err := GetClient(tx, clientID)
	if err != nil {
		return Issued{}, oauthErr("invalid_client", "unknown client_id")
	}
	if !client.Public && !client.CheckSecret(secret) {
		return Issued{}, oauthErr("invalid_client", "wrong or missing client_secret")
	}
	id := tx.Bucket([]byte(store.CloudRefreshTokens)).Get(HashToken(refresh))
	if id == nil {
		return Issued{}, oauthErr("invalid_grant", "unknown or used refresh_token")
	}
	old, err := TokenByID(tx, store.Btoi(id))
	if err != nil || old.ClientID != client.ID {
		return Issued{}, oauthErr("invalid_grant", "unknown or used refresh_token")
	}
	if err := RevokeToken(tx, old); err != nil {
		return Issued{}, err
	}
	return issueOAuth(tx, client, old.Username, old.Scopes, true, now)
}

// RevokeClientToken revokes an access or refresh token issued to clientID (POST /oauth/revoke,
// /oauth/token/expire). An unknown token is not an error (RFC 7009 §2.2).
func RevokeClientToken(tx *bbolt.Tx, clientID, token string) error {
	hash := HashToken(token)
	t, err := store.Get[Token](tx, store.CloudTokens, hash)
	if err != nil {
		id := tx.Bucket([]byte(store.CloudRefreshTokens)).Get(hash)
		if id == nil {
			return nil
		}
		if t, err = TokenByID(tx, store.Btoi(id)); err != nil {
			return nil
		}
	}
	if t.ClientID != clientID {
		return nil
	}
	return RevokeToken(tx, t)
}

// ErrLoginFailed means a username/password pair did not match.
var ErrLoginFailed = errors.New("invalid username or password")

// CheckLogin checks a username and password for the login server.
func CheckLogin(tx *bbolt.Tx, username, password string) (User, error) {
	u, err := GetUser(tx, username)
	if err != nil || !u.CheckPassword(password) {
		return User{}, ErrLoginFailed
	}
	if acct, err := GetAccount(tx, u.AccountID); err != nil || acct.Cancelled != nil {
		return User{}, ErrLoginFailed // a cancelled account's users cannot sign in again
	}
	return u, nil
}
