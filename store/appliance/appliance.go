// Package appliance keeps the running appliance's own state in store.BucketAppliance: the hashed
// bootstrap token and build-service admin password, and the dev-clock offset. Reset and Restore
// leave this bucket alone, so the operator keeps access whatever data is loaded.
package appliance

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
	"golang.org/x/crypto/bcrypt"
)

var (
	keyBootstrap   = []byte("bootstrap_token_sha256")
	keyAdminPass   = []byte("admin_password_bcrypt")
	keyClockOffset = []byte("clock_offset_ns")
)

// Credentials reports what EnsureCredentials did with each secret. A plaintext field is non-empty
// only when the secret was generated on this start: it is shown to the user once, then only its
// hash exists.
type Credentials struct {
	BootstrapToken string
	AdminPassword  string
	// TokenSource and PasswordSource say where each secret came from on this start:
	// "generated", "flag" (set from configuration) or "stored" (kept from an earlier start).
	TokenSource, PasswordSource string
}

// EnsureCredentials makes sure both secrets exist. A configured value replaces the stored one
// (the flag is the operator's word); with none configured, a stored secret is kept, and a missing
// one is generated. Hashing with bcrypt is slow on purpose, so call it once at start-up in an
// exclusive transaction.
func EnsureCredentials(tx kv.Tx, token, password string) (Credentials, error) {
	b, err := store.Bucket(tx, store.BucketAppliance)
	if err != nil {
		return Credentials{}, err
	}
	var cr Credentials
	switch {
	case token != "":
		cr.TokenSource = "flag"
		err = b.Put(keyBootstrap, store.HashSecret(token))
	case b.Get(keyBootstrap) != nil:
		cr.TokenSource = "stored"
	default:
		cr.TokenSource, cr.BootstrapToken = "generated", store.RandomHex(32)
		err = b.Put(keyBootstrap, store.HashSecret(cr.BootstrapToken))
	}
	if err != nil {
		return cr, err
	}
	switch {
	case password != "":
		cr.PasswordSource = "flag"
		if bcrypt.CompareHashAndPassword(b.Get(keyAdminPass), []byte(password)) != nil {
			err = putPassword(b, password)
		}
	case b.Get(keyAdminPass) != nil:
		cr.PasswordSource = "stored"
	default:
		cr.PasswordSource, cr.AdminPassword = "generated", store.RandomHex(10)
		err = putPassword(b, cr.AdminPassword)
	}
	return cr, err
}

func putPassword(b kv.Bucket, password string) error {
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		return fmt.Errorf("admin password: %w", err)
	}
	return b.Put(keyAdminPass, h)
}

// CheckBootstrapToken reports whether token is the bootstrap token, in constant time.
func CheckBootstrapToken(tx kv.Tx, token string) bool {
	b, err := store.Bucket(tx, store.BucketAppliance)
	if err != nil || token == "" {
		return false
	}
	stored := b.Get(keyBootstrap)
	return stored != nil && subtle.ConstantTimeCompare(stored, store.HashSecret(token)) == 1
}

// CheckAdminPassword reports whether password is the build service admin's password.
func CheckAdminPassword(tx kv.Tx, password string) bool {
	b, err := store.Bucket(tx, store.BucketAppliance)
	if err != nil {
		return false
	}
	return bcrypt.CompareHashAndPassword(b.Get(keyAdminPass), []byte(password)) == nil
}

// ClockOffset returns the persisted dev-clock offset (0 when never moved).
func ClockOffset(tx kv.Tx) (time.Duration, error) {
	ns, err := store.Get[int64](tx, store.BucketAppliance, keyClockOffset)
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	return time.Duration(ns), err
}

// SetClockOffset persists the dev-clock offset, so a restart resumes the moved time.
func SetClockOffset(tx kv.Tx, d time.Duration) error {
	return store.Put(tx, store.BucketAppliance, keyClockOffset, int64(d))
}

// BootstrapTokenHash returns the stored SHA-256 of the bootstrap token (nil before the first
// start), so other domains can honour the same secret.
func BootstrapTokenHash(tx kv.Tx) []byte {
	b, err := store.Bucket(tx, store.BucketAppliance)
	if err != nil {
		return nil
	}
	return append([]byte(nil), b.Get(keyBootstrap)...)
}

// AdminPasswordHash returns the stored bcrypt hash of the build service admin's password (nil
// before the first start), so the build domain gives its Admin person the same password.
func AdminPasswordHash(tx kv.Tx) []byte {
	b, err := store.Bucket(tx, store.BucketAppliance)
	if err != nil {
		return nil
	}
	return append([]byte(nil), b.Get(keyAdminPass)...)
}
