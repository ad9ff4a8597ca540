package cloudstore

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The functions here put records with values chosen by the caller — a token or client secret
// that the demo world documents — instead of fresh random ones. Only fixtures use them.

// ImportToken stores t with the given plaintext.
func ImportToken(tx kv.Tx, t *Token, plain string, now time.Time) error {
	return storeToken(tx, t, plain, now)
}

// ImportClient stores an OAuth client with the given id and secret.
func ImportClient(tx kv.Tx, c Client, secret string) error {
	if c.Status == "" {
		c.Status = "active"
	}
	return AddClient(tx, c, secret)
}

// SetAccountOwner records the account's owner.
func SetAccountOwner(tx kv.Tx, a Account, owner string) error {
	a.Owner = owner
	return store.Put(tx, store.CloudAccounts, store.Itob(a.ID), a)
}
