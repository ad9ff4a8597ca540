package cloudsvc

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
	"golang.org/x/crypto/bcrypt"
)

// SetupLifetime is how long a password-setup link works (the welcome e-mail says 7 days).
const SetupLifetime = 7 * 24 * time.Hour

// issuePasswordSetup makes a single-use link token for u (the welcome e-mail carries it).
func issuePasswordSetup(tx kv.Tx, u cloudstore.User, now time.Time) (string, error) {
	plain := store.RandomHex(24)
	return plain, cloudstore.PutPasswordSetup(tx, plain, cloudstore.PasswordSetup{Username: u.Username, Expires: now.Add(SetupLifetime)})
}

// pendingSetup returns the user a live setup token belongs to; an expired link reads as an
// unknown one.
func pendingSetup(tx kv.Tx, token string, now time.Time) (cloudstore.User, error) {
	s, err := cloudstore.GetPasswordSetup(tx, token)
	if err != nil || !now.Before(s.Expires) {
		return cloudstore.User{}, fmt.Errorf("password setup link: %w", store.ErrNotFound)
	}
	return cloudstore.GetUser(tx, s.Username)
}

// completeSetup sets the password through a setup token and retires the token.
func completeSetup(tx kv.Tx, token, password string, now time.Time) (cloudstore.User, error) {
	u, err := pendingSetup(tx, token, now)
	if err != nil {
		return u, err
	}
	if err := hashPassword(&u, password); err != nil {
		return u, err
	}
	if err := cloudstore.PutUser(tx, u); err != nil {
		return u, err
	}
	return u, cloudstore.DeletePasswordSetup(tx, token)
}

// hashPassword checks the password's length and keeps its bcrypt hash in u (not yet stored):
// user creation and the setup link both set passwords through it, so both apply one rule.
func hashPassword(u *cloudstore.User, password string) error {
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

// PendingSetup returns the user a live password-setup token belongs to.
func (s *Service) PendingSetup(token string) (cloudstore.User, error) {
	now := s.clk.Now()
	var u cloudstore.User
	err := s.db.View(func(tx kv.Tx) (err error) { u, err = pendingSetup(tx, token, now); return })
	return u, err
}

// CompleteSetup sets a password through a setup token, which then stops working. On a refused
// password the user is still returned, so the form can be shown again.
func (s *Service) CompleteSetup(token, password string) (cloudstore.User, error) {
	now := s.clk.Now()
	var u cloudstore.User
	err := s.db.Write(func(tx kv.Tx) (err error) { u, err = completeSetup(tx, token, password, now); return })
	return u, err
}
