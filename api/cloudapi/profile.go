package cloudapi

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"go.etcd.io/bbolt"
)

// bindProfile registers the caller's own profile, grants and personal access tokens.
func (a *api) bindProfile(r *routes) {
	r.add(both, "GET", "/profile", access{}, a.getProfile)
	r.add(both, "GET", "/profile/grants", access{}, a.getProfileGrants)
	r.add(both, "GET", "/profile/tokens", account(anyUser), a.listTokens)
	r.add(both, "POST", "/profile/tokens", account(anyUser), a.createToken)
	r.add(both, "GET", "/profile/tokens/:tokenId", account(anyUser), a.getToken)
	r.add(both, "PUT", "/profile/tokens/:tokenId", account(anyUser), a.updateToken)
	r.add(both, "DELETE", "/profile/tokens/:tokenId", account(anyUser), a.deleteToken)
}

// profileView is the caller's own profile. Fields of features the appliance does not simulate
// (referrals, phone verification, 2FA, lish) carry the values of a fresh real account.
type profileView struct {
	UID                 uint64         `json:"uid"`
	Username            string         `json:"username"`
	Email               string         `json:"email"`
	Timezone            string         `json:"timezone"`
	EmailNotifications  bool           `json:"email_notifications"`
	Referrals           map[string]any `json:"referrals"`
	IPWhitelistEnabled  bool           `json:"ip_whitelist_enabled"`
	LishAuthMethod      string         `json:"lish_auth_method"`
	AuthorizedKeys      []string       `json:"authorized_keys"`
	TwoFactorAuth       bool           `json:"two_factor_auth"`
	Restricted          bool           `json:"restricted"`
	AuthenticationType  string         `json:"authentication_type"`
	VerifiedPhoneNumber *string        `json:"verified_phone_number"`
}

func (a *api) getProfile(c *fiber.Ctx) error {
	u := callerOf(c).user
	return c.JSON(profileView{
		UID: u.UID, Username: u.Username, Email: u.Email, Timezone: "UTC", EmailNotifications: true,
		Referrals:      map[string]any{"code": "", "url": "", "total": 0, "completed": 0, "pending": 0, "credit": 0},
		LishAuthMethod: "password_keys", AuthorizedKeys: []string{}, Restricted: u.Restricted, AuthenticationType: "password",
	})
}

// getProfileGrants shows the caller's own grants: 204 for an unrestricted user.
func (a *api) getProfileGrants(c *fiber.Ctx) error {
	u := callerOf(c).user
	if !u.Restricted {
		return c.SendStatus(http.StatusNoContent)
	}
	var owned cloudstore.Entities
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		owned, err = cloudstore.AccountEntities(tx, u.AccountID)
		return err
	}); err != nil {
		return err
	}
	return c.JSON(viewGrants(u, owned))
}

// tokenView is a personal access token; token is its first 16 characters, except in the create
// response, which carries it whole once.
type tokenView struct {
	ID      uint64  `json:"id"`
	Label   string  `json:"label"`
	Scopes  string  `json:"scopes"`
	Created string  `json:"created"`
	Expiry  *string `json:"expiry"`
	Token   string  `json:"token"`
}

func viewToken(t cloudstore.Token) tokenView {
	return tokenView{ID: t.ID, Label: t.Label, Scopes: t.Scopes, Created: formatTime(t.Created), Expiry: formatTimePtr(t.Expiry), Token: t.Prefix}
}

var tokenFields = listing.Fields[cloudstore.Token]{
	"label":   func(t cloudstore.Token) any { return t.Label },
	"created": func(t cloudstore.Token) any { return t.Created },
}

// ownTokens are the caller's personal access tokens (the bootstrap token is one of the demo
// owner's); OAuth tokens are apps, not listed here.
func ownTokens(tx *bbolt.Tx, username string) ([]cloudstore.Token, error) {
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

func (a *api) listTokens(c *fiber.Ctx) error {
	var tokens []cloudstore.Token
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		tokens, err = ownTokens(tx, callerOf(c).user.Username)
		return err
	}); err != nil {
		return err
	}
	return renderList(c, tokens, tokenFields, viewToken)
}

// ownToken finds one of the caller's personal access tokens by the id in the path.
func ownToken(tx *bbolt.Tx, c *fiber.Ctx) (cloudstore.Token, error) {
	id, err := strconv.ParseUint(c.Params("tokenId"), 10, 64)
	if err != nil {
		return cloudstore.Token{}, fmt.Errorf("token: %w", store.ErrNotFound)
	}
	t, err := cloudstore.TokenByID(tx, id)
	if err != nil || t.Kind == cloudstore.KindOAuth || t.Username != callerOf(c).user.Username {
		return cloudstore.Token{}, fmt.Errorf("token %d: %w", id, store.ErrNotFound)
	}
	return t, nil
}

func (a *api) getToken(c *fiber.Ctx) error {
	var t cloudstore.Token
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) { t, err = ownToken(tx, c); return }); err != nil {
		return err
	}
	return c.JSON(viewToken(t))
}

// createToken makes a personal access token. It may not reach beyond the scopes of the token
// that asks for it, so a narrow token cannot mint a wide one.
func (a *api) createToken(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	in := cloudstore.NewPAT{Scopes: b.str("scopes"), Expiry: b.timestamp("expiry")}
	if s := b.str("label"); s != nil {
		in.Label = *s
	}
	if err := b.err(); err != nil {
		return err
	}
	cl, now := callerOf(c), a.Clock.Now()
	var t cloudstore.Token
	var plain string
	err = a.Store.Write(func(tx *bbolt.Tx) error {
		if t, plain, err = cloudstore.CreatePAT(tx, cl.user, in, now); err != nil {
			return err
		}
		if !scopesWithin(t.Scopes, cl.token.Scopes) {
			return &kit.Error{Status: http.StatusBadRequest, Field: "scopes", Reason: "A token cannot have scopes the token creating it lacks"}
		}
		return a.record(tx, cl, "token_create", tokenEntity(t), now)
	})
	if err != nil {
		return err
	}
	v := viewToken(t)
	v.Token = plain
	return c.JSON(v)
}

// scopesWithin reports whether every scope of want is allowed by have.
func scopesWithin(want, have string) bool {
	if have == cloudstore.AllScopes {
		return true
	}
	if want == cloudstore.AllScopes {
		return false
	}
	for _, s := range splitScopes(want) {
		area, level, _ := cutScope(s)
		if !cloudstore.ScopesAllow(have, area, level) {
			return false
		}
	}
	return true
}

func (a *api) updateToken(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	label := b.str("label")
	if err := b.err(); err != nil {
		return err
	}
	cl, now := callerOf(c), a.Clock.Now()
	var t cloudstore.Token
	err = a.Store.Write(func(tx *bbolt.Tx) error {
		if t, err = ownToken(tx, c); err != nil || label == nil {
			return err
		}
		if t, err = cloudstore.RenameToken(tx, t, *label); err != nil {
			return err
		}
		return a.record(tx, cl, "token_update", tokenEntity(t), now)
	})
	if err != nil {
		return err
	}
	return c.JSON(viewToken(t))
}

// deleteToken revokes a personal access token at once (it may be the one making the call).
func (a *api) deleteToken(c *fiber.Ctx) error {
	cl, now := callerOf(c), a.Clock.Now()
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		t, err := ownToken(tx, c)
		if err != nil {
			return err
		}
		if err := cloudstore.RevokeToken(tx, t); err != nil {
			return err
		}
		return a.record(tx, cl, "token_delete", tokenEntity(t), now)
	})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}

func tokenEntity(t cloudstore.Token) *cloudstore.EventEntity {
	return &cloudstore.EventEntity{ID: t.ID, Label: t.Label, Type: "token", URL: fmt.Sprintf("/v4/profile/tokens/%d", t.ID)}
}
