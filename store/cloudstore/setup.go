package cloudstore

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// SetupLifetime is how long a password-setup link works.
const SetupLifetime = 7 * 24 * time.Hour

// PasswordSetup is a pending password-setup link, stored under its token's SHA-256.
type PasswordSetup struct {
	Username string    `json:"username"`
	Expires  time.Time `json:"expires"`
}

// IssuePasswordSetup makes a single-use link token for u (the welcome e-mail carries it).
func IssuePasswordSetup(tx *bbolt.Tx, u User, now time.Time) (string, error) {
	plain := randomSecret(24)
	return plain, store.Put(tx, store.CloudPasswordSetups, HashToken(plain), PasswordSetup{u.Username, now.Add(SetupLifetime)})
}

// PendingSetup returns the user a live setup token belongs to.
func PendingSetup(tx *bbolt.Tx, token string, now time.Time) (User, error) {
	s, err := store.Get[PasswordSetup](tx, store.CloudPasswordSetups, HashToken(token))
	if err != nil || !now.Before(s.Expires) {
		return User{}, fmt.Errorf("password setup link: %w", store.ErrNotFound)
	}
	return GetUser(tx, s.Username)
}

// CompleteSetup sets the password through a setup token and retires the token.
func CompleteSetup(tx *bbolt.Tx, token, password string, now time.Time) (User, error) {
	u, err := PendingSetup(tx, token, now)
	if err != nil {
		return u, err
	}
	if err := SetPassword(tx, u, password); err != nil {
		return u, err
	}
	return u, store.Delete(tx, store.CloudPasswordSetups, HashToken(token))
}
