package buildstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// GlobalKeyName is the key under which the instance's own signing key is stored: the last stop
// of the _pubkey fallback. Project names start with a letter or digit, so it names no project.
const GlobalKeyName = "_global"

// SignKey is an OpenPGP signing key pair of a project (or of the instance). The private key is
// kept here, next to the public one, the way the real backend keeps _signkey next to _pubkey:
// only the signer (the build farm) reads it, no route serves it.
type SignKey struct {
	// Public is the ASCII-armored public key, served as is by GET /source/P/_pubkey.
	Public string `json:"public"`
	// Private is the serialized private key (binary OpenPGP packets).
	Private []byte    `json:"private"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
}

// GetSignKey returns the key stored for project (or GlobalKeyName); ok is false when none is.
func GetSignKey(tx kv.Tx, project string) (k SignKey, ok bool, err error) {
	k, err = store.Get[SignKey](tx, store.BuildSignKeys, []byte(project))
	if errors.Is(err, store.ErrNotFound) {
		return SignKey{}, false, nil
	}
	return k, err == nil, err
}

// PutSignKey stores (or replaces) the key of project (or GlobalKeyName).
func PutSignKey(tx kv.Tx, project string, k SignKey) error {
	return store.Put(tx, store.BuildSignKeys, []byte(project), k)
}

// DeleteSignKey removes the key of project; none is fine (DELETE _pubkey has no effect then).
func DeleteSignKey(tx kv.Tx, project string) error {
	b, err := store.Bucket(tx, store.BuildSignKeys)
	if err != nil {
		return err
	}
	return b.Delete([]byte(project))
}

// EachSignKey calls fn with every stored key and the project (or GlobalKeyName) it is
// stored for, in name order, until fn returns an error; a record that does not decode is one.
func EachSignKey(tx kv.Tx, fn func(name string, k SignKey) error) error {
	b := tx.Bucket([]byte(store.BuildSignKeys))
	if b == nil {
		return nil
	}
	return b.ForEach(func(name, raw []byte) error {
		var k SignKey
		if err := json.Unmarshal(raw, &k); err != nil {
			return fmt.Errorf("the signing key of %s: %w", name, err)
		}
		return fn(string(name), k)
	})
}
