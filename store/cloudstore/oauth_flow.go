package cloudstore

import (
	"errors"
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

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

// PutCode stores an authorization code under the hash of its plaintext.
func PutCode(tx kv.Tx, plain string, c Code) error {
	return store.Put(tx, store.CloudCodes, HashToken(plain), c)
}

// GetCode returns the authorization code of plaintext plain.
func GetCode(tx kv.Tx, plain string) (Code, error) {
	return store.Get[Code](tx, store.CloudCodes, HashToken(plain))
}

// Exchange is a code-for-token request (the input of cloudsvc's ExchangeCode).
type Exchange struct {
	ClientID, ClientSecret, Code, CodeVerifier, RedirectURI string
}

// Issued is what a token endpoint answers with.
type Issued struct {
	Token   Token
	Access  string
	Refresh string // "" when none is issued
}

// IndexRefreshToken files t under the hash of its refresh token (t.Refresh), so a refresh
// finds the token it replaces.
func IndexRefreshToken(tx kv.Tx, t Token) error {
	return tx.Bucket([]byte(store.CloudRefreshTokens)).Put(t.Refresh, store.Itob(t.ID))
}

// TokenByRefresh returns the token a refresh token plaintext was issued with.
func TokenByRefresh(tx kv.Tx, refresh string) (Token, error) {
	id := tx.Bucket([]byte(store.CloudRefreshTokens)).Get(HashToken(refresh))
	if id == nil {
		return Token{}, fmt.Errorf("refresh token: %w", store.ErrNotFound)
	}
	return TokenByID(tx, store.Btoi(id))
}

// TokenByPlain returns the token of an access token plaintext.
func TokenByPlain(tx kv.Tx, plain string) (Token, error) {
	t, err := store.Get[Token](tx, store.CloudTokens, HashToken(plain))
	if errors.Is(err, store.ErrNotFound) {
		err = fmt.Errorf("token: %w", store.ErrNotFound)
	}
	return t, err
}
