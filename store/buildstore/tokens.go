package buildstore

import (
	"crypto/subtle"
	"encoding/binary"
	"strconv"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TokenKinds are the operations a token may be made for (the service's token-kind); osc sends
// one as ?operation=, runservice when left out.
var TokenKinds = []string{"rss", "rebuild", "release", "runservice", "workflow"}

// TokenRunService is the kind of token POST /trigger/runservice takes.
const TokenRunService = "runservice"

// Token is a person's API token. Only a SHA-256 of the secret is kept, so the secret is shown
// once, when created; Prefix (its first 8 characters) lets the owner tell tokens apart later.
type Token struct {
	ID          uint64    `json:"id"`
	Login       string    `json:"login"`
	Kind        string    `json:"kind"`
	Description string    `json:"description,omitempty"`
	Project     string    `json:"project,omitempty"`
	Package     string    `json:"package,omitempty"`
	Hash        []byte    `json:"hash"`
	Prefix      string    `json:"prefix"`
	Created     time.Time `json:"created"`
	// TriggeredAt is when the token last triggered its operation (nil: never), which the token
	// list shows so the owner sees whether the webhook that holds it still fires.
	TriggeredAt *time.Time `json:"triggered_at,omitempty"`
}

// tokenKey is login 0x00 BE id, so a person's tokens list in id order.
func tokenKey(login string, id uint64) []byte {
	return binary.BigEndian.AppendUint64(append([]byte(login), 0), id)
}

// CreateToken stores t for its Login with a fresh id and a new random secret, which it returns
// (the only time it exists outside the caller's reply).
func CreateToken(tx kv.Tx, t Token) (Token, string, error) {
	id, err := store.NextID(tx, store.BuildTokens)
	if err != nil {
		return t, "", err
	}
	secret := store.RandomHex(20)
	t.ID, t.Hash, t.Prefix = id, store.HashSecret(secret), secret[:8]
	return t, secret, store.Put(tx, store.BuildTokens, tokenKey(t.Login, id), t)
}

// PutToken stores a token read earlier (with TokenBySecret or Tokens) back under its key.
func PutToken(tx kv.Tx, t Token) error {
	return store.Put(tx, store.BuildTokens, tokenKey(t.Login, t.ID), t)
}

// Tokens lists a person's tokens by id.
func Tokens(tx kv.Tx, login string) ([]Token, error) {
	var out []Token
	err := store.Each(tx, store.BuildTokens, append([]byte(login), 0), func(_ []byte, t Token) (bool, error) {
		out = append(out, t)
		return true, nil
	})
	return out, err
}

// TokenBySecret finds the token whose secret this is. Only hashes are stored and a token is
// signed in with rarely (a webhook per push), so every token is compared, each in constant
// time, rather than keeping an index of hashes. The not-found message is the service's.
func TokenBySecret(tx kv.Tx, secret string) (Token, error) {
	hash := store.HashSecret(secret)
	var found Token
	ok := false
	err := store.Each(tx, store.BuildTokens, nil, func(_ []byte, t Token) (bool, error) {
		if subtle.ConstantTimeCompare(t.Hash, hash) == 1 {
			found, ok = t, true
			return false, nil
		}
		return true, nil
	})
	if err == nil && !ok {
		err = store.NotFoundf("Token not found")
	}
	return found, err
}

// DeleteToken removes one of login's tokens; another person's token id is not found.
func DeleteToken(tx kv.Tx, login, id string) error {
	n, err := strconv.ParseUint(id, 10, 64)
	if err == nil {
		err = store.Delete(tx, store.BuildTokens, tokenKey(login, n))
	}
	if err != nil {
		return store.NotFoundf("Couldn't find Token with id = %s", id)
	}
	return nil
}

// DeleteTokens removes every token of login: a deleted person's webhooks must stop working.
func DeleteTokens(tx kv.Tx, login string) error {
	list, err := Tokens(tx, login)
	for _, t := range list {
		if err != nil {
			break
		}
		err = store.Delete(tx, store.BuildTokens, tokenKey(login, t.ID))
	}
	return err
}
