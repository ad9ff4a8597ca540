package cloudapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"go.etcd.io/bbolt"
)

// bindOAuthClients registers the OAuth client endpoints: account-wide, so restricted users
// need the account_access grant; the thumbnail is public.
func (a *api) bindOAuthClients(r *routes) {
	r.add(both, "GET", "/account/oauth-clients", account(accountGrant), a.listClients)
	r.add(both, "POST", "/account/oauth-clients", account(accountGrant), a.createClient)
	r.add(both, "GET", "/account/oauth-clients/:clientId", account(accountGrant), a.getClient)
	r.add(both, "PUT", "/account/oauth-clients/:clientId", account(accountGrant), a.updateClient)
	r.add(both, "DELETE", "/account/oauth-clients/:clientId", account(accountGrant), a.deleteClient)
	r.add(both, "POST", "/account/oauth-clients/:clientId/reset-secret", account(accountGrant), a.resetClientSecret)
	r.add(both, "GET", "/account/oauth-clients/:clientId/thumbnail", access{public: true}, a.getThumbnail)
	r.add(both, "PUT", "/account/oauth-clients/:clientId/thumbnail", account(accountGrant), a.putThumbnail)
}

// clientView is an OAuth client; secret is "<REDACTED>" except right after create and
// reset-secret.
type clientView struct {
	ID           string  `json:"id"`
	RedirectURI  string  `json:"redirect_uri"`
	Label        string  `json:"label"`
	Status       string  `json:"status"`
	Secret       string  `json:"secret"`
	ThumbnailURL *string `json:"thumbnail_url"`
	Public       bool    `json:"public"`
}

func (a *api) viewClient(cl cloudstore.Client) clientView {
	v := clientView{ID: cl.ID, RedirectURI: cl.RedirectURI, Label: cl.Label, Status: cl.Status, Secret: "<REDACTED>", Public: cl.Public}
	if cl.HasThumbnail {
		u := a.ExternalURL() + "/v4/account/oauth-clients/" + cl.ID + "/thumbnail"
		v.ThumbnailURL = &u
	}
	return v
}

var clientFields = listing.Fields[cloudstore.Client]{
	"label":  func(c cloudstore.Client) any { return c.Label },
	"public": func(c cloudstore.Client) any { return c.Public },
}

func clientEntity(cl cloudstore.Client) *cloudstore.EventEntity {
	return &cloudstore.EventEntity{ID: cl.ID, Label: cl.Label, Type: "oauth_client", URL: "/v4/account/oauth-clients/" + cl.ID}
}

func (a *api) listClients(c *fiber.Ctx) error {
	var list []cloudstore.Client
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		list, err = cloudstore.AccountClients(tx, callerOf(c).user.AccountID)
		return err
	}); err != nil {
		return err
	}
	return renderList(c, list, clientFields, a.viewClient)
}

func (a *api) getClient(c *fiber.Ctx) error {
	var cl cloudstore.Client
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		cl, err = cloudstore.AccountClient(tx, callerOf(c).user.AccountID, c.Params("clientId"))
		return err
	}); err != nil {
		return err
	}
	return c.JSON(a.viewClient(cl))
}

// clientInput reads label, redirect_uri and public from the body.
func clientInput(c *fiber.Ctx) (cloudstore.ClientInput, error) {
	b, err := parseBody(c)
	if err != nil {
		return cloudstore.ClientInput{}, err
	}
	in := cloudstore.ClientInput{Label: b.str("label"), RedirectURI: b.str("redirect_uri"), Public: b.boolean("public")}
	return in, b.err()
}

func (a *api) createClient(c *fiber.Ctx) error {
	in, err := clientInput(c)
	if err != nil {
		return err
	}
	caller, now := callerOf(c), a.Clock.Now()
	var cl cloudstore.Client
	var secret string
	err = a.Store.Write(func(tx *bbolt.Tx) error {
		if cl, secret, err = cloudstore.CreateClient(tx, caller.user.AccountID, in, now); err != nil {
			return err
		}
		return a.record(tx, caller, "oauth_client_create", clientEntity(cl), now)
	})
	if err != nil {
		return err
	}
	v := a.viewClient(cl)
	v.Secret = secret
	return c.JSON(v)
}

func (a *api) updateClient(c *fiber.Ctx) error {
	in, err := clientInput(c)
	if err != nil {
		return err
	}
	caller, now := callerOf(c), a.Clock.Now()
	var cl cloudstore.Client
	err = a.Store.Write(func(tx *bbolt.Tx) error {
		if cl, err = cloudstore.AccountClient(tx, caller.user.AccountID, c.Params("clientId")); err != nil {
			return err
		}
		if cl, err = cloudstore.UpdateClient(tx, cl, in); err != nil {
			return err
		}
		return a.record(tx, caller, "oauth_client_update", clientEntity(cl), now)
	})
	if err != nil {
		return err
	}
	return c.JSON(a.viewClient(cl))
}

// deleteClient removes the client: its id and secret stop working and every token issued to it
// is revoked, in the same transaction.
func (a *api) deleteClient(c *fiber.Ctx) error {
	caller, now := callerOf(c), a.Clock.Now()
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		cl, err := cloudstore.AccountClient(tx, caller.user.AccountID, c.Params("clientId"))
		if err != nil {
			return err
		}
		if err := cloudstore.DeleteClient(tx, cl); err != nil {
			return err
		}
		return a.record(tx, caller, "oauth_client_delete", clientEntity(cl), now)
	})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}

func (a *api) resetClientSecret(c *fiber.Ctx) error {
	caller, now := callerOf(c), a.Clock.Now()
	var cl cloudstore.Client
	var secret string
	err := a.Store.Write(func(tx *bbolt.Tx) (err error) {
		if cl, err = cloudstore.AccountClient(tx, caller.user.AccountID, c.Params("clientId")); err != nil {
			return err
		}
		if cl, secret, err = cloudstore.ResetSecret(tx, cl); err != nil {
			return err
		}
		return a.record(tx, caller, "oauth_client_secret_reset", clientEntity(cl), now)
	})
	if err != nil {
		return err
	}
	v := a.viewClient(cl)
	v.Secret = secret
	return c.JSON(v)
}

// putThumbnail stores the request body, which must be a PNG image (checked by content, not by
// the Content-Type alone), as the client's public thumbnail.
func (a *api) putThumbnail(c *fiber.Ctx) error {
	caller := callerOf(c)
	png := append([]byte(nil), c.Body()...) // fiber reuses the buffer; Write may run later
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		cl, err := cloudstore.AccountClient(tx, caller.user.AccountID, c.Params("clientId"))
		if err != nil {
			return err
		}
		return cloudstore.SetThumbnail(tx, cl, png)
	})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}

// getThumbnail is public: anyone may see a client's thumbnail (the consent page shows it).
func (a *api) getThumbnail(c *fiber.Ctx) error {
	var png []byte
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		png, err = cloudstore.Thumbnail(tx, c.Params("clientId"))
		return err
	}); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "image/png")
	return c.Send(png)
}
