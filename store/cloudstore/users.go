package cloudstore

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
	"golang.org/x/crypto/bcrypt"
)

// User is a login of an account. Usernames are unique across the appliance, case-insensitively
// (the key is the lower-case name; Username keeps the case it was given).
type User struct {
	UID          uint64    `json:"uid"` // numeric id, shown by /profile
	Username     string    `json:"username"`
	AccountID    uint64    `json:"account_id"`
	Email        string    `json:"email"`
	Restricted   bool      `json:"restricted"`
	PasswordHash []byte    `json:"password_hash,omitempty"` // bcrypt; empty until the user sets one
	Created      time.Time `json:"created"`
	// Grants apply only to restricted users; nil means none.
	Grants *Grants `json:"grants,omitempty"`
}

// userKey is the key of a username in CloudUsers.
func userKey(username string) []byte { return []byte(strings.ToLower(username)) }

// GetUser returns the user named username (any case).
func GetUser(tx kv.Tx, username string) (User, error) {
	u, err := store.Get[User](tx, store.CloudUsers, userKey(username))
	if errors.Is(err, store.ErrNotFound) {
		err = fmt.Errorf("user %q: %w", username, store.ErrNotFound)
	}
	return u, err
}

// AccountUser returns the user named username if it belongs to account; another account's user
// is reported as not found, never as forbidden, so accounts cannot probe each other's names.
func AccountUser(tx kv.Tx, account uint64, username string) (User, error) {
	u, err := GetUser(tx, username)
	if err == nil && u.AccountID != account {
		err = fmt.Errorf("user %q: %w", username, store.ErrNotFound)
	}
	return u, err
}

// AccountUsers returns the account's users in username order.
func AccountUsers(tx kv.Tx, account uint64) ([]User, error) {
	return store.IndexedRecords[User](tx, store.CloudAccountUsers, store.Itob(account), store.CloudUsers)
}

// NewUser is the input of cloudsvc's user creation.
type NewUser struct {
	Username   string
	Email      string
	Restricted bool
	Password   string // API-created users choose theirs through the setup link
	// PasswordBcrypt is a ready bcrypt hash (fixtures ship hashes, so a first start does not
	// spend a bcrypt round per demo user).
	PasswordBcrypt string
}

// PutUser writes u and its account index entry.
func PutUser(tx kv.Tx, u User) error {
	if err := store.Put(tx, store.CloudUsers, userKey(u.Username), u); err != nil {
		return err
	}
	return store.IndexAdd(tx, store.CloudAccountUsers, store.Itob(u.AccountID), userKey(u.Username))
}

// UserUpdate holds the fields a PUT sent (cloudsvc's UpdateUser); nil fields stay unchanged.
type UserUpdate struct {
	Username   *string
	Email      *string
	Restricted *bool
}

// RenameUser moves u's record to a new name (the key is the lower-case name), with its
// tokens; whether the name may be taken is cloudsvc's to decide.
func RenameUser(tx kv.Tx, u User, name string) error {
	old := u.Username
	if err := removeUserRecord(tx, u); err != nil {
		return err
	}
	u.Username = name
	if err := PutUser(tx, u); err != nil {
		return err
	}
	return moveTokens(tx, old, name)
}

// DeleteUser removes the user, their grants and every token they hold (they are logged out).
func DeleteUser(tx kv.Tx, u User) error {
	if err := RevokeUserTokens(tx, u.Username); err != nil {
		return err
	}
	return removeUserRecord(tx, u)
}

func removeUserRecord(tx kv.Tx, u User) error {
	if err := store.Delete(tx, store.CloudUsers, userKey(u.Username)); err != nil {
		return err
	}
	return store.IndexRemove(tx, store.CloudAccountUsers, store.Itob(u.AccountID), userKey(u.Username))
}

// CheckPassword reports whether password is the user's (false when none is set).
func (u User) CheckPassword(password string) bool {
	return len(u.PasswordHash) > 0 && bcrypt.CompareHashAndPassword(u.PasswordHash, []byte(password)) == nil
}
