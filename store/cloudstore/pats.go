package cloudstore

import (
	"time"
	"unicode/utf8"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// NewPAT is the input of CreatePAT: what POST /profile/tokens sends.
type NewPAT struct {
	Label  string
	Scopes *string    // nil: "*"
	Expiry *time.Time // nil: never
}

// CreatePAT makes a personal access token for u and returns it with its plaintext (shown once).
func CreatePAT(tx *bbolt.Tx, u User, in NewPAT, now time.Time) (Token, string, error) {
	var p store.Problems
	scopes := AllScopes
	if in.Scopes != nil {
		s, err := ParseScopes(*in.Scopes, "scopes")
		if err != nil {
			p = append(p, err.(store.Problems)...)
		}
		scopes = s
	}
	if n := utf8.RuneCountInString(in.Label); n > 100 {
		p.Add("label", "Length must be 1-100 characters")
	}
	if in.Expiry != nil && !in.Expiry.After(now) {
		p.Add("expiry", "Must be in the future")
	}
	if err := p.Err(); err != nil {
		return Token{}, "", err
	}
	t := Token{Kind: KindPAT, Username: u.Username, AccountID: u.AccountID, Label: in.Label, Scopes: scopes, Expiry: in.Expiry}
	plain, err := IssueToken(tx, &t, now)
	return t, plain, err
}

// RenameToken sets a token's label (PUT /profile/tokens/{id}).
func RenameToken(tx *bbolt.Tx, t Token, label string) (Token, error) {
	if n := utf8.RuneCountInString(label); n < 1 || n > 100 {
		return t, store.Problems{{Field: "label", Reason: "Length must be 1-100 characters"}}
	}
	t.Label = label
	return t, PutToken(tx, t)
}

// EnsureBootstrapToken makes the appliance's bootstrap token (given by its SHA-256) an all-scopes
// personal access token of the named account's owner: at every start and after every restore,
// reset or reseed, so changing --bootstrap-token replaces the old one. Without that account or
// owner (an empty data file) it does nothing: the token then opens only /_appliance.
func EnsureBootstrapToken(tx *bbolt.Tx, hash []byte, accountName string, now time.Time) error {
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
