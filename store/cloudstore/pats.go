package cloudstore

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// NewPAT is the input of cloudsvc's CreatePAT: what POST /profile/tokens sends.
type NewPAT struct {
	Label  string
	Scopes *string    // nil: "*"
	Expiry *time.Time // nil: never
}

// EnsureBootstrapToken makes the appliance's bootstrap token (given by its SHA-256) an all-scopes
// personal access token of the named account's owner: at every start and after every restore,
// reset or reseed, so changing --bootstrap-token replaces the old one. Without that account or
// owner (an empty data file) it does nothing: the token then opens only /_appliance.
func EnsureBootstrapToken(tx kv.Tx, hash []byte, accountName string, now time.Time) error {
	acct, err := AccountByName(tx, accountName)
	if err != nil {
		return nil
	}
	owner, err := GetUser(tx, acct.Owner)
	if err != nil {
		return nil
	}
	existing, err := UserTokens(tx, owner.Username, KindBootstrap)
	if err != nil {
		return err
	}
	for _, t := range existing {
		if string(tx.Bucket([]byte(store.CloudTokenIDs)).Get(store.Itob(t.ID))) == string(hash) {
			return nil
		}
		if err := RevokeToken(tx, t); err != nil {
			return err
		}
	}
	if tx.Bucket([]byte(store.CloudTokens)).Get(hash) != nil {
		return nil // the same secret is already someone's token; leave it
	}
	t := Token{Kind: KindBootstrap, Username: owner.Username, AccountID: acct.ID, Label: "pocketforge bootstrap token", Scopes: AllScopes}
	return storeTokenHash(tx, &t, hash, "", now)
}
