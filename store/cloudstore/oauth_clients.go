package cloudstore

import (
	"bytes"
	"crypto/subtle"
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Client is a registered OAuth client. Its id is public; its secret is stored hashed and shown
// in plaintext only by create and reset-secret.
type Client struct {
	ID           string    `json:"id"` // 20 hex characters, as the real ids
	AccountID    uint64    `json:"account_id"`
	Label        string    `json:"label"`
	RedirectURI  string    `json:"redirect_uri"`
	Public       bool      `json:"public"`
	Status       string    `json:"status"` // active
	SecretHash   []byte    `json:"secret_hash"`
	HasThumbnail bool      `json:"has_thumbnail"`
	Created      time.Time `json:"created"`
}

// ClientInput holds the fields a create or update sent (the input of cloudsvc's CreateClient and
// UpdateClient); nil fields are unchanged (update) or missing (create).
type ClientInput struct {
	Label       *string
	RedirectURI *string
	Public      *bool
}

// AddClient stores a new OAuth client of c.AccountID with the hash of its secret, and its
// account index entry.
func AddClient(tx kv.Tx, c Client, secret string) error {
	c.SecretHash = HashToken(secret)
	if err := PutClient(tx, c); err != nil {
		return err
	}
	return store.IndexAdd(tx, store.CloudAccountClients, store.Itob(c.AccountID), []byte(c.ID))
}

// PutClient stores a changed client.
func PutClient(tx kv.Tx, c Client) error {
	return store.Put(tx, store.CloudClients, []byte(c.ID), c)
}

// GetClient returns an OAuth client by id.
func GetClient(tx kv.Tx, id string) (Client, error) {
	c, err := store.Get[Client](tx, store.CloudClients, []byte(id))
	if err != nil {
		return c, fmt.Errorf("OAuth client %q: %w", id, store.ErrNotFound)
	}
	return c, nil
}

// AccountClient returns the client if it belongs to account (another account's is not found).
func AccountClient(tx kv.Tx, account uint64, id string) (Client, error) {
	c, err := GetClient(tx, id)
	if err == nil && c.AccountID != account {
		err = fmt.Errorf("OAuth client %q: %w", id, store.ErrNotFound)
	}
	return c, err
}

// AccountClients lists the account's OAuth clients in id order.
func AccountClients(tx kv.Tx, account uint64) ([]Client, error) {
	return store.IndexedRecords[Client](tx, store.CloudAccountClients, store.Itob(account), store.CloudClients)
}

// ResetSecret gives the client a new secret; the old one stops working at once.
func ResetSecret(tx kv.Tx, c Client) (Client, string, error) {
	secret := randomSecret(32)
	c.SecretHash = HashToken(secret)
	return c, secret, PutClient(tx, c)
}

// CheckSecret reports whether secret is the client's, in constant time.
func (c Client) CheckSecret(secret string) bool {
	return secret != "" && subtle.ConstantTimeCompare(c.SecretHash, HashToken(secret)) == 1
}

// DeleteClient removes the client, its thumbnail and every token issued to it.
func DeleteClient(tx kv.Tx, c Client) error {
	ids, err := store.IndexChildren(tx, store.CloudClientTokens, []byte(c.ID))
	if err != nil {
		return err
	}
	for _, id := range ids {
		t, err := TokenByID(tx, store.Btoi(id))
		if err != nil {
			return err
		}
		if err := RevokeToken(tx, t); err != nil {
			return err
		}
	}
	if err := tx.Bucket([]byte(store.CloudThumbnails)).Delete([]byte(c.ID)); err != nil {
		return err
	}
	if err := store.Delete(tx, store.CloudClients, []byte(c.ID)); err != nil {
		return err
	}
	return store.IndexRemove(tx, store.CloudAccountClients, store.Itob(c.AccountID), []byte(c.ID))
}

// PutThumbnail stores png as the client's thumbnail and marks the client as having one.
func PutThumbnail(tx kv.Tx, c Client, png []byte) error {
	if err := tx.Bucket([]byte(store.CloudThumbnails)).Put([]byte(c.ID), bytes.Clone(png)); err != nil {
		return err
	}
	c.HasThumbnail = true
	return PutClient(tx, c)
}

// Thumbnail returns the client's thumbnail (a copy); ErrNotFound when it has none.
func Thumbnail(tx kv.Tx, id string) ([]byte, error) {
	data := tx.Bucket([]byte(store.CloudThumbnails)).Get([]byte(id))
	if data == nil {
		return nil, fmt.Errorf("thumbnail of %q: %w", id, store.ErrNotFound)
	}
	return bytes.Clone(data), nil
}
