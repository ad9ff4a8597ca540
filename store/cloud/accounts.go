// Package cloud keeps the cloud API's records — accounts, users and grants, tokens, OAuth clients
// and codes, events, logins and the entities grants refer to — and the rules that guard them. Key
// layouts live next to each record's accessors; every function takes the transaction it works in,
// so a handler's whole action (the change, its indexes and its event) commits at once.
package cloud

import (
	"crypto/rand"
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// Account is one customer account. Billing fields arrive with the account issue.
type Account struct {
	ID          uint64    `json:"id"`
	Name        string    `json:"name"`  // the demo world's name for it ("demo", "partner")
	Owner       string    `json:"owner"` // username of the account's owner (its first user)
	Email       string    `json:"email"`
	Euuid       string    `json:"euuid"`
	ActiveSince time.Time `json:"active_since"`
}

// CreateAccount stores a new account with the next id.
func CreateAccount(tx *bbolt.Tx, a *Account) error {
	id, err := store.NextID(tx, store.CloudAccounts)
	if err != nil {
		return err
	}
	a.ID = id
	if a.Euuid == "" {
		a.Euuid = newUUID()
	}
	return store.Put(tx, store.CloudAccounts, store.Itob(id), a)
}

// GetAccount returns the account with id.
func GetAccount(tx *bbolt.Tx, id uint64) (Account, error) {
	return store.Get[Account](tx, store.CloudAccounts, store.Itob(id))
}

// AccountByName finds an account by its demo-world name (fixtures and tests).
func AccountByName(tx *bbolt.Tx, name string) (Account, error) {
	var found *Account
	err := store.Each(tx, store.CloudAccounts, nil, func(_ []byte, a Account) (bool, error) {
		if a.Name == name {
			found = &a
			return false, nil
		}
		return true, nil
	})
	if err == nil && found == nil {
		err = fmt.Errorf("account %q: %w", name, store.ErrNotFound)
	}
	if err != nil {
		return Account{}, err
	}
	return *found, nil
}

// newUUID returns a random RFC 4122 version 4 UUID.
func newUUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
