package cloudstore

import (
	"bytes"
	"crypto/subtle"
	"fmt"
	"net/url"
	"time"
	"unicode/utf8"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
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

// ClientInput holds the fields a create or update sent; nil fields are unchanged (update) or
// missing (create).
type ClientInput struct {
	Label       *string
	RedirectURI *string
	Public      *bool
}

func (in ClientInput) check(create bool) error {
	var p store.Problems
	switch {
	case in.Label == nil && create:
		p.Add("label", "Label is required")
	case in.Label != nil && (utf8.RuneCountInString(*in.Label) < 1 || utf8.RuneCountInString(*in.Label) > 512):
		p.Add("label", "Length must be 1-512 characters")
	}
	switch {
	case in.RedirectURI == nil && create:
		p.Add("redirect_uri", "Redirect URI is required")
	case in.RedirectURI != nil && !validRedirect(*in.RedirectURI):
		p.Add("redirect_uri", "Must be a valid absolute URL (http or https, with a host)")
	}
	return p.Err()
}

// validRedirect accepts an absolute http(s) URL with a host and no fragment (RFC 6749 §3.1.2).
func validRedirect(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Fragment == "" && len(s) <= 2048
}

// CreateClient registers an OAuth client of account and returns it with its plaintext secret.
func CreateClient(tx *bbolt.Tx, account uint64, in ClientInput, now time.Time) (Client, string, error) {
	if err := in.check(true); err != nil {
		return Client{}, "", err
	}
	c := Client{ID: randomSecret(10), AccountID: account, Label: *in.Label, RedirectURI: *in.RedirectURI, Status: "active", Created: now}
	if in.Public != nil {
		c.Public = *in.Public
	}
	secret := randomSecret(32)
	c.SecretHash = HashToken(secret)
	if err := store.Put(tx, store.CloudClients, []byte(c.ID), c); err != nil {
		return c, "", err
	}
	return c, secret, store.IndexAdd(tx, store.CloudAccountClients, store.Itob(account), []byte(c.ID))
}

// GetClient returns an OAuth client by id.
func GetClient(tx *bbolt.Tx, id string) (Client, error) {
	c, err := store.Get[Client](tx, store.CloudClients, []byte(id))
	if err != nil {
		return c, fmt.Errorf("OAuth client %q: %w", id, store.ErrNotFound)
	}
	return c, nil
}

// AccountClient returns the client if it belongs to account (another account's is not found).
func AccountClient(tx *bbolt.Tx, account uint64, id string) (Client, error) {
	c, err := GetClient(tx, id)
	if err == nil && c.AccountID != account {
		err = fmt.Errorf("OAuth client %q: %w", id, store.ErrNotFound)
	}
	return c, err
}

// AccountClients lists the account's OAuth clients in id order.
func AccountClients(tx *bbolt.Tx, account uint64) ([]Client, error) {
	return store.IndexedRecords[Client](tx, store.CloudAccountClients, store.Itob(account), store.CloudClients)
}

// UpdateClient applies the sent fields.
func UpdateClient(tx *bbolt.Tx, c Client, in ClientInput) (Client, error) {
	if err := in.check(false); err != nil {
		return c, err
	}
	if in.Label != nil {
		c.Label = *in.Label
	}
	if in.RedirectURI != nil {
		c.RedirectURI = *in.RedirectURI
	}
	if in.Public != nil {
		c.Public = *in.Public
	}
	return c, store.Put(tx, store.CloudClients, []byte(c.ID), c)
}

// ResetSecret gives the client a new secret; the old one stops working at once.
func ResetSecret(tx *bbolt.Tx, c Client) (Client, string, error) {
	secret := randomSecret(32)
	c.SecretHash = HashToken(secret)
	return c, secret, store.Put(tx, store.CloudClients, []byte(c.ID), c)
}

// CheckSecret reports whether secret is the client's, in constant time.
func (c Client) CheckSecret(secret string) bool {
	return secret != "" && subtle.ConstantTimeCompare(c.SecretHash, HashToken(secret)) == 1
}

// DeleteClient removes the client, its thumbnail and every token issued to it.
func DeleteClient(tx *bbolt.Tx, c Client) error {
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

// MaxThumbnail is the largest thumbnail accepted (the real service does not say; 1 MiB keeps the
// public thumbnail endpoint cheap).
const MaxThumbnail = 1 << 20

// pngMagic starts every PNG file.
var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// SetThumbnail stores a PNG image as the client's thumbnail, checked by content.
func SetThumbnail(tx *bbolt.Tx, c Client, png []byte) error {
	switch {
	case len(png) == 0:
		return store.Problems{{Reason: "A PNG image is required as the request body"}}
	case len(png) > MaxThumbnail:
		return store.Problems{{Reason: fmt.Sprintf("Thumbnail must be at most %d bytes", MaxThumbnail)}}
	case !isPNG(png):
		return store.Problems{{Reason: "Thumbnail must be a PNG image"}}
	}
	if err := tx.Bucket([]byte(store.CloudThumbnails)).Put([]byte(c.ID), bytes.Clone(png)); err != nil {
		return err
	}
	c.HasThumbnail = true
	return store.Put(tx, store.CloudClients, []byte(c.ID), c)
}

// Thumbnail returns the client's thumbnail (a copy); ErrNotFound when it has none.
func Thumbnail(tx *bbolt.Tx, id string) ([]byte, error) {
	data := tx.Bucket([]byte(store.CloudThumbnails)).Get([]byte(id))
	if data == nil {
		return nil, fmt.Errorf("thumbnail of %q: %w", id, store.ErrNotFound)
	}
	return bytes.Clone(data), nil
}
