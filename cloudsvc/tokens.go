package cloudsvc

import (
	"fmt"
	"strings"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// OwnTokens are user username's personal access tokens (the bootstrap token is one of the demo
// owner's); OAuth tokens are apps, not listed among them.
func (s *Service) OwnTokens(username string) ([]cloudstore.Token, error) {
	var out []cloudstore.Token
	err := s.db.View(func(tx kv.Tx) (err error) {
		out, err = ownTokens(tx, username)
		return err
	})
	return out, err
}

func ownTokens(tx kv.Tx, username string) ([]cloudstore.Token, error) {
	all, err := cloudstore.UserTokens(tx, username, "")
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, t := range all {
		if t.Kind != cloudstore.KindOAuth {
			out = append(out, t)
		}
	}
	return out, nil
}

// OwnToken returns user username's personal access token id; another user's token or an OAuth
// token is not found.
func (s *Service) OwnToken(username string, id uint64) (cloudstore.Token, error) {
	var t cloudstore.Token
	err := s.db.View(func(tx kv.Tx) (err error) { t, err = ownToken(tx, username, id); return })
	return t, err
}

func ownToken(tx kv.Tx, username string, id uint64) (cloudstore.Token, error) {
	t, err := cloudstore.TokenByID(tx, id)
	if err != nil || t.Kind == cloudstore.KindOAuth || t.Username != username {
		return cloudstore.Token{}, fmt.Errorf("token %d: %w", id, store.ErrNotFound)
	}
	return t, nil
}

// CreatePAT makes a personal access token for by and records token_create; it returns the token
// and its secret, shown once. The token may not reach beyond byScopes, the scopes of the token
// that asks for it, so a narrow token cannot mint a wide one.
func (s *Service) CreatePAT(by cloudstore.User, byScopes string, in cloudstore.NewPAT) (cloudstore.Token, string, error) {
	now := s.clk.Now()
	var t cloudstore.Token
	var plain string
	err := s.db.Write(func(tx kv.Tx) (err error) {
		if t, plain, err = newPAT(tx, by, in, now); err != nil {
			return err
		}
		if !scopesWithin(t.Scopes, byScopes) {
			return fault.Invalid("", "A token cannot have scopes the token creating it lacks").OnField("scopes")
		}
		return record(tx, by, "token_create", tokenEntity(t), now)
	})
	return t, plain, err
}

// scopesWithin reports whether every scope of want is allowed by have.
func scopesWithin(want, have string) bool {
	if have == cloudstore.AllScopes {
		return true
	}
	if want == cloudstore.AllScopes {
		return false
	}
	for _, sc := range strings.Fields(want) {
		area, level, _ := strings.Cut(sc, ":")
		if !ScopesAllow(have, area, level) {
			return false
		}
	}
	return true
}

// RenamePAT gives by's personal access token id a new label (nil: unchanged, nothing recorded)
// and records token_update.
func (s *Service) RenamePAT(by cloudstore.User, id uint64, label *string) (cloudstore.Token, error) {
	now := s.clk.Now()
	var t cloudstore.Token
	err := s.db.Write(func(tx kv.Tx) (err error) {
		if t, err = ownToken(tx, by.Username, id); err != nil || label == nil {
			return err
		}
		if t, err = renameToken(tx, t, *label); err != nil {
			return err
		}
		return record(tx, by, "token_update", tokenEntity(t), now)
	})
	return t, err
}

// RevokePAT ends by's personal access token id at once (it may be the one making the call) and
// records token_delete.
func (s *Service) RevokePAT(by cloudstore.User, id uint64) error {
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		t, err := ownToken(tx, by.Username, id)
		if err != nil {
			return err
		}
		if err := cloudstore.RevokeToken(tx, t); err != nil {
			return err
		}
		return record(tx, by, "token_delete", tokenEntity(t), now)
	})
}

// tokenEntity is a token as an event's entity.
func tokenEntity(t cloudstore.Token) *cloudstore.EventEntity {
	return &cloudstore.EventEntity{ID: t.ID, Label: t.Label, Type: "token", URL: fmt.Sprintf("/v4/profile/tokens/%d", t.ID)}
}
