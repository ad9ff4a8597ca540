package cloudsvc

import (
	"time"
	"unicode/utf8"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// newPAT checks a personal access token's scopes, label and expiry, every problem at once, and
// stores the token for u; it returns the token with its plaintext (shown once).
func newPAT(tx kv.Tx, u cloudstore.User, in cloudstore.NewPAT, now time.Time) (cloudstore.Token, string, error) {
	var p store.Problems
	scopes := cloudstore.AllScopes
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
		return cloudstore.Token{}, "", err
	}
	t := cloudstore.Token{Kind: cloudstore.KindPAT, Username: u.Username, AccountID: u.AccountID, Label: in.Label, Scopes: scopes, Expiry: in.Expiry}
	plain, err := cloudstore.IssueToken(tx, &t, now)
	return t, plain, err
}

// renameToken sets a token's label (PUT /profile/tokens/{id}), 1-100 characters.
func renameToken(tx kv.Tx, t cloudstore.Token, label string) (cloudstore.Token, error) {
	if n := utf8.RuneCountInString(label); n < 1 || n > 100 {
		return t, store.Problems{{Field: "label", Reason: "Length must be 1-100 characters"}}
	}
	t.Label = label
	return t, cloudstore.PutToken(tx, t)
}
