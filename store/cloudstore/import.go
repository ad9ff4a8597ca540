package cloudstore

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// The functions here put records with values chosen by the caller — a token or client secret
// that the demo world documents — instead of fresh random ones. Only fixtures use them.

// ImportToken stores t with the given plaintext.
func ImportToken(tx *bbolt.Tx, t *Token, plain string, now time.Time) error {
	return storeToken(tx, t, plain, now)
}

// ImportClient stores an OAuth client with the given id and secret.
func ImportClient(tx *bbolt.Tx, c Client, secret string) error {
	if c.Status == "" {
		c.Status = "active"
	}
	return AddClient(tx, c, secret)
}

// SetAccountOwner records the account's owner.
func SetAccountOwner(tx *bbolt.Tx, a Account, owner string) error {
	a.Owner = owner
	return store.Put(tx, store.CloudAccounts, store.Itob(a.ID), a)
}
