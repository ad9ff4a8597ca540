package cloudstore

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Token kinds.
const (
	KindPAT       = "pat"       // personal access token, made by the user
	KindOAuth     = "oauth"     // access token issued to an OAuth client
	KindBootstrap = "bootstrap" // the appliance's --bootstrap-token, a PAT of the demo owner
)

// OAuthTokenLifetime is how long an OAuth access token lives (the seed's 7200 s).
const OAuthTokenLifetime = 2 * time.Hour

// Token is a bearer token. Only its SHA-256 is stored (the key); the plaintext is shown once.
type Token struct {
	ID        uint64     `json:"id"`
	Kind      string     `json:"kind"`
	Username  string     `json:"username"`
	AccountID uint64     `json:"account_id"`
	Label     string     `json:"label"`
	Scopes    string     `json:"scopes"` // canonical, see cloudsvc.ParseScopes
	Created   time.Time  `json:"created"`
	Expiry    *time.Time `json:"expiry"` // nil: never
	Prefix    string     `json:"prefix"` // first 16 characters, shown in token views
	ClientID  string     `json:"client_id,omitempty"`
	Refresh   []byte     `json:"refresh,omitempty"` // SHA-256 of the refresh token, if any
}

// Expired reports whether the token has expired at now.
func (t Token) Expired(now time.Time) bool { return t.Expiry != nil && !now.Before(*t.Expiry) }

// HashToken is the key of a token's plaintext (store.HashSecret).
func HashToken(plain string) []byte { return store.HashSecret(plain) }

// TokenSum is HashToken as an array (store.SecretSum).
func TokenSum(plain string) [sha256.Size]byte { return store.SecretSum(plain) }

// randomSecret returns n random bytes as hex.
func randomSecret(n int) string { return store.RandomHex(n) }

// IssueToken stores t (ID, Created and Prefix are set here) and returns its plaintext.
func IssueToken(tx kv.Tx, t *Token, now time.Time) (string, error) {
	plain := randomSecret(32)
	return plain, storeToken(tx, t, plain, now)
}

// storeToken stores t under the hash of plain, with its indexes.
func storeToken(tx kv.Tx, t *Token, plain string, now time.Time) error {
	return storeTokenHash(tx, t, HashToken(plain), plain[:min(16, len(plain))], now)
}

// storeTokenHash stores t under hash, for a token whose plaintext may not be known here.
func storeTokenHash(tx kv.Tx, t *Token, hash []byte, prefix string, now time.Time) error {
	id, err := store.NextID(tx, store.CloudTokenIDs)
	if err != nil {
		return err
	}
	t.ID, t.Created, t.Prefix = id, now, prefix
	if err := store.Put(tx, store.CloudTokens, hash, t); err != nil {
		return err
	}
	if err := tx.Bucket([]byte(store.CloudTokenIDs)).Put(store.Itob(id), hash); err != nil {
		return err
	}
	if err := store.IndexAdd(tx, store.CloudUserTokens, userKey(t.Username), store.Itob(id)); err != nil {
		return err
	}
	if t.ClientID != "" {
		return store.IndexAdd(tx, store.CloudClientTokens, []byte(t.ClientID), store.Itob(id))
	}
	return nil
}

// ErrBadToken means a bearer token is unknown, revoked or expired: HTTP 401.
var ErrBadToken = errors.New("invalid token")

// FindToken returns the token stored under hash and its user, expired or not (cloudsvc's
// Authenticate checks Expired against its clock; this lets the result be cached).
func FindToken(tx kv.Tx, hash []byte) (Token, User, error) {
	t, err := store.Get[Token](tx, store.CloudTokens, hash)
	if err != nil {
		return Token{}, User{}, ErrBadToken
	}
	u, err := GetUser(tx, t.Username)
	if err != nil {
		return Token{}, User{}, ErrBadToken
	}
	return t, u, nil
}

// TokenByID returns the token with id.
func TokenByID(tx kv.Tx, id uint64) (Token, error) {
	hash := tx.Bucket([]byte(store.CloudTokenIDs)).Get(store.Itob(id))
	if hash == nil {
		return Token{}, fmt.Errorf("token %d: %w", id, store.ErrNotFound)
	}
	return store.Get[Token](tx, store.CloudTokens, hash)
}

// PutToken rewrites a token's record (label changes).
func PutToken(tx kv.Tx, t Token) error {
	hash := tx.Bucket([]byte(store.CloudTokenIDs)).Get(store.Itob(t.ID))
	if hash == nil {
		return fmt.Errorf("token %d: %w", t.ID, store.ErrNotFound)
	}
	return store.Put(tx, store.CloudTokens, hash, t)
}

// UserTokens returns the user's tokens of one kind ("" = all), in id order.
func UserTokens(tx kv.Tx, username, kind string) ([]Token, error) {
	ids, err := store.IndexChildren(tx, store.CloudUserTokens, userKey(username))
	if err != nil {
		return nil, err
	}
	out := []Token{}
	for _, id := range ids {
		t, err := TokenByID(tx, store.Btoi(id))
		if err != nil {
			return nil, err
		}
		if kind == "" || t.Kind == kind {
			out = append(out, t)
		}
	}
	return out, nil
}

// RevokeToken deletes a token, its refresh token and its index entries.
func RevokeToken(tx kv.Tx, t Token) error {
	ids := tx.Bucket([]byte(store.CloudTokenIDs))
	hash := ids.Get(store.Itob(t.ID))
	if hash == nil {
		return fmt.Errorf("token %d: %w", t.ID, store.ErrNotFound)
	}
	if err := tx.Bucket([]byte(store.CloudTokens)).Delete(hash); err != nil {
		return err
	}
	if err := ids.Delete(store.Itob(t.ID)); err != nil {
		return err
	}
	if t.Refresh != nil {
		if err := tx.Bucket([]byte(store.CloudRefreshTokens)).Delete(t.Refresh); err != nil {
			return err
		}
	}
	if err := store.IndexRemove(tx, store.CloudUserTokens, userKey(t.Username), store.Itob(t.ID)); err != nil {
		return err
	}
	return store.IndexRemove(tx, store.CloudClientTokens, []byte(t.ClientID), store.Itob(t.ID))
}

// RevokeUserTokens deletes every token the user holds: they are logged out everywhere.
func RevokeUserTokens(tx kv.Tx, username string) error {
	tokens, err := UserTokens(tx, username, "")
	if err != nil {
		return err
	}
	for _, t := range tokens {
		if err := RevokeToken(tx, t); err != nil {
			return err
		}
	}
	return nil
}

// moveTokens re-homes a renamed user's tokens.
func moveTokens(tx kv.Tx, from, to string) error {
	tokens, err := UserTokens(tx, from, "")
	if err != nil {
		return err
	}
	for _, t := range tokens {
		if err := store.IndexRemove(tx, store.CloudUserTokens, userKey(from), store.Itob(t.ID)); err != nil {
			return err
		}
		t.Username = to
		if err := PutToken(tx, t); err != nil {
			return err
		}
		if err := store.IndexAdd(tx, store.CloudUserTokens, userKey(to), store.Itob(t.ID)); err != nil {
			return err
		}
	}
	return nil
}
