package cloudstore

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// PasswordSetup is a pending password-setup link, stored under its token's SHA-256 (the token
// itself is only in the welcome e-mail).
type PasswordSetup struct {
	Username string    `json:"username"`
	Expires  time.Time `json:"expires"`
}

// PutPasswordSetup stores a setup link under the hash of its token.
func PutPasswordSetup(tx kv.Tx, token string, s PasswordSetup) error {
	return store.Put(tx, store.CloudPasswordSetups, HashToken(token), s)
}

// GetPasswordSetup returns the setup link of token, expired or not.
func GetPasswordSetup(tx kv.Tx, token string) (PasswordSetup, error) {
	return store.Get[PasswordSetup](tx, store.CloudPasswordSetups, HashToken(token))
}

// DeletePasswordSetup removes the setup link of token.
func DeletePasswordSetup(tx kv.Tx, token string) error {
	return store.Delete(tx, store.CloudPasswordSetups, HashToken(token))
}
