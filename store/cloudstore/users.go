package cloudstore

import (
	"errors"
	"fmt"
	"net/mail"
	"regexp"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
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

// usernamePattern is the real service's rule: letters, digits, '-' and '_', starting and ending
// with a letter or digit, no two '-'/'_' in a row.
var usernamePattern = regexp.MustCompile(`^[a-zA-Z0-9]([a-zA-Z0-9]|[-_][a-zA-Z0-9])*$`)

// checkUsername adds the problems of a proposed username.
func checkUsername(p *store.Problems, name string) {
	switch {
	case len(name) < 3 || len(name) > 32:
		p.Add("username", "Username must be between 3 and 32 characters")
	case !usernamePattern.MatchString(name):
		p.Add("username", "Username may only contain letters, numbers, dashes and underscores, must start and end with a letter or number, and cannot have two dashes or underscores in a row")
	}
}

// checkEmail adds the problem of a proposed e-mail address.
func checkEmail(p *store.Problems, email string) {
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || len(email) > 128 || !strings.Contains(email[strings.LastIndexByte(email, '@'):], ".") {
		p.Add("email", "Must be a valid email address")
	}
}

// GetUser returns the user named username (any case).
func GetUser(tx *bbolt.Tx, username string) (User, error) {
	u, err := store.Get[User](tx, store.CloudUsers, userKey(username))
	if errors.Is(err, store.ErrNotFound) {
		err = fmt.Errorf("user %q: %w", username, store.ErrNotFound)
	}
	return u, err
}

// AccountUser returns the user named username if it belongs to account; another account's user
// is reported as not found, never as forbidden, so accounts cannot probe each other's names.
func AccountUser(tx *bbolt.Tx, account uint64, username string) (User, error) {
	u, err := GetUser(tx, username)
	if err == nil && u.AccountID != account {
		err = fmt.Errorf("user %q: %w", username, store.ErrNotFound)
	}
	return u, err
}

// AccountUsers returns the account's users in username order.
func AccountUsers(tx *bbolt.Tx, account uint64) ([]User, error) {
	return store.IndexedRecords[User](tx, store.CloudAccountUsers, store.Itob(account), store.CloudUsers)
}

// NewUser is the input of CreateUser.
type NewUser struct {
	Username   string
	Email      string
	Restricted bool
	Password   string // API-created users choose theirs through the setup link
	// PasswordBcrypt is a ready bcrypt hash (fixtures ship hashes, so a first start does not
	// spend a bcrypt round per demo user).
	PasswordBcrypt string
}

// CreateUser checks and stores a new user of account. A restricted user starts with no grants.
func CreateUser(tx *bbolt.Tx, account uint64, in NewUser, now time.Time) (User, error) {
	var p store.Problems
	checkUsername(&p, in.Username)
	checkEmail(&p, in.Email)
	if len(p) == 0 {
		if _, err := GetUser(tx, in.Username); err == nil {
			p.Add("username", "Username is already taken")
		}
	}
	if err := p.Err(); err != nil {
		return User{}, err
	}
	uid, err := store.NextID(tx, store.CloudUsers)
	if err != nil {
		return User{}, err
	}
	u := User{UID: uid, Username: in.Username, AccountID: account, Email: in.Email, Restricted: in.Restricted, Created: now}
	if in.Restricted {
		u.Grants = &Grants{}
	}
	if in.Password != "" {
		if err := u.setPassword(in.Password); err != nil {
			return User{}, err
		}
	}
	if in.PasswordBcrypt != "" {
		u.PasswordHash = []byte(in.PasswordBcrypt)
	}
	return u, putUser(tx, u)
}

// putUser writes u and its account index entry.
func putUser(tx *bbolt.Tx, u User) error {
	if err := store.Put(tx, store.CloudUsers, userKey(u.Username), u); err != nil {
		return err
	}
	return store.IndexAdd(tx, store.CloudAccountUsers, store.Itob(u.AccountID), userKey(u.Username))
}

// UserUpdate holds the fields a PUT sent; nil fields stay unchanged.
type UserUpdate struct {
	Username   *string
	Email      *string
	Restricted *bool
}

// UpdateUser applies up to the user. Renaming moves the record and its tokens; becoming restricted
// starts with no grants; becoming unrestricted drops the grants.
func UpdateUser(tx *bbolt.Tx, u User, up UserUpdate) (User, error) {
	var p store.Problems
	if up.Username != nil {
		checkUsername(&p, *up.Username)
		if other, err := GetUser(tx, *up.Username); len(p) == 0 && err == nil && !strings.EqualFold(other.Username, u.Username) {
			p.Add("username", "Username is already taken")
		}
	}
	if up.Email != nil {
		checkEmail(&p, *up.Email)
	}
	if err := p.Err(); err != nil {
		return u, err
	}
	if up.Email != nil {
		u.Email = *up.Email
	}
	if up.Restricted != nil && *up.Restricted != u.Restricted {
		u.Restricted = *up.Restricted
		u.Grants = nil
		if u.Restricted {
			u.Grants = &Grants{}
		}
	}
	if up.Username != nil && *up.Username != u.Username {
		if err := renameUser(tx, u, *up.Username); err != nil {
			return u, err
		}
		u.Username = *up.Username
		return u, nil
	}
	return u, putUser(tx, u)
}

// renameUser moves u to a new name, with its tokens.
func renameUser(tx *bbolt.Tx, u User, name string) error {
	old := u.Username
	if err := removeUserRecord(tx, u); err != nil {
		return err
	}
	u.Username = name
	if err := putUser(tx, u); err != nil {
		return err
	}
	return moveTokens(tx, old, name)
}

// DeleteUser removes the user, their grants and every token they hold (they are logged out).
func DeleteUser(tx *bbolt.Tx, u User) error {
	if err := RevokeUserTokens(tx, u.Username); err != nil {
		return err
	}
	return removeUserRecord(tx, u)
}

func removeUserRecord(tx *bbolt.Tx, u User) error {
	if err := store.Delete(tx, store.CloudUsers, userKey(u.Username)); err != nil {
		return err
	}
	return store.IndexRemove(tx, store.CloudAccountUsers, store.Itob(u.AccountID), userKey(u.Username))
}

// SetPassword sets the user's password (bcrypt) and stores the user.
func SetPassword(tx *bbolt.Tx, u User, password string) error {
	if err := u.setPassword(password); err != nil {
		return err
	}
	return putUser(tx, u)
}

func (u *User) setPassword(password string) error {
	if len(password) < 8 || len(password) > 128 {
		return store.Problems{{Field: "password", Reason: "Password must be between 8 and 128 characters"}}
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		return err
	}
	u.PasswordHash = h
	return nil
}

// CheckPassword reports whether password is the user's (false when none is set).
func (u User) CheckPassword(password string) bool {
	return len(u.PasswordHash) > 0 && bcrypt.CompareHashAndPassword(u.PasswordHash, []byte(password)) == nil
}
