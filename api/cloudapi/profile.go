package cloudapi

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// bindProfile registers the caller's own profile, grants and personal access tokens.
func (a *api) bindProfile(r *routes) {
	r.add(both, "GET", "/profile", access{}, a.getProfile)
	r.add(both, "GET", "/profile/grants", access{}, a.getProfileGrants)
	r.add(both, "GET", "/profile/tokens", accessOf(cloudsvc.NeedListTokens), a.listTokens)
	r.add(both, "POST", "/profile/tokens", accessOf(cloudsvc.NeedCreateToken), a.createToken)
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
	u := callerOf(c).User
	return c.JSON(profileView{
		UID: u.UID, Username: u.Username, Email: u.Email, Timezone: "UTC", EmailNotifications: true,
		Referrals:      map[string]any{"code": "", "url": "", "total": 0, "completed": 0, "pending": 0, "credit": 0},
		LishAuthMethod: "password_keys", AuthorizedKeys: []string{}, Restricted: u.Restricted, AuthenticationType: "password",
	})
}

// getProfileGrants shows the caller's own grants: 204 for an unrestricted user.
func (a *api) getProfileGrants(c *fiber.Ctx) error {
	u := callerOf(c).User
	if !u.Restricted {
		return c.SendStatus(http.StatusNoContent)
	}
	owned, err := a.Cloud.AccountEntities(u.AccountID)
	if err != nil {
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

func (a *api) listTokens(c *fiber.Ctx) error {
	tokens, err := a.Cloud.OwnTokens(callerOf(c).User.Username)
	if err != nil {
		return err
	}
	return renderList(c, tokens, tokenFields, viewToken)
}

// tokenID reads the token id of the path; a malformed one is simply not found.
func tokenID(c *fiber.Ctx) (uint64, error) {
	id, err := strconv.ParseUint(c.Params("tokenId"), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("token: %w", store.ErrNotFound)
	}
	return id, nil
}

func (a *api) getToken(c *fiber.Ctx) error {
	id, err := tokenID(c)
	if err != nil {
		return err
	}
	t, err := a.Cloud.OwnToken(callerOf(c).User.Username, id)
	if err != nil {
		return err
	}
	return c.JSON(viewToken(t))
}

// createToken makes a personal access token, within the scopes of the token asking for it.
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
	cl := callerOf(c)
	t, plain, err := a.Cloud.CreatePAT(cl.User, cl.Token.Scopes, in)
	if err != nil {
		return err
	}
	v := viewToken(t)
	v.Token = plain
	return c.JSON(v)
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
	id, err := tokenID(c)
	if err != nil {
		return err
	}
	t, err := a.Cloud.RenamePAT(callerOf(c).User, id, label)
	if err != nil {
		return err
	}
	return c.JSON(viewToken(t))
}

// deleteToken revokes a personal access token at once (it may be the one making the call).
func (a *api) deleteToken(c *fiber.Ctx) error {
	id, err := tokenID(c)
	if err != nil {
		return err
	}
	if err := a.Cloud.RevokePAT(callerOf(c).User, id); err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}
