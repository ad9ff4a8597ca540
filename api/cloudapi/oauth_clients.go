package cloudapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// bindOAuthClients registers the OAuth client endpoints: account-wide, so restricted users
// need the account_access grant; the thumbnail is public.
func (a *api) bindOAuthClients(r *routes) {
	r.add(both, "GET", "/account/oauth-clients", accessOf(cloudsvc.NeedListOAuthClients), a.listClients)
	r.add(both, "POST", "/account/oauth-clients", accessOf(cloudsvc.NeedCreateOAuthClient), a.createClient)
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

// listClients lists the caller's OAuth clients in id order, the index order: without a filter
// only the page's clients are decoded.
func (a *api) listClients(c *fiber.Ctx) error {
	account := callerOf(c).User.AccountID
	return renderPaged(c, clientFields, a.viewClient,
		func(w func(int) (int, int)) ([]cloudstore.Client, int, error) {
			return a.Cloud.AccountClientsPage(account, w)
		},
		func() ([]cloudstore.Client, error) { return a.Cloud.AccountClients(account) })
}

func (a *api) getClient(c *fiber.Ctx) error {
	cl, err := a.Cloud.AccountClient(callerOf(c).User.AccountID, c.Params("clientId"))
	if err != nil {
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
	cl, secret, err := a.Cloud.CreateClient(callerOf(c).User, in)
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
	cl, err := a.Cloud.UpdateClient(callerOf(c).User, c.Params("clientId"), in)
	if err != nil {
		return err
	}
	return c.JSON(a.viewClient(cl))
}

// deleteClient removes the client; every token issued to it is revoked.
func (a *api) deleteClient(c *fiber.Ctx) error {
	if err := a.Cloud.DeleteClient(callerOf(c).User, c.Params("clientId")); err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}

func (a *api) resetClientSecret(c *fiber.Ctx) error {
	cl, secret, err := a.Cloud.ResetClientSecret(callerOf(c).User, c.Params("clientId"))
	if err != nil {
		return err
	}
	v := a.viewClient(cl)
	v.Secret = secret
	return c.JSON(v)
}

// putThumbnail stores the request body as the client's public thumbnail (the domain checks it
// is a PNG by content, not by the Content-Type alone).
func (a *api) putThumbnail(c *fiber.Ctx) error {
	png := append([]byte(nil), c.Body()...) // fiber reuses the buffer; Write may run later
	if err := a.Cloud.SetClientThumbnail(callerOf(c).User, c.Params("clientId"), png); err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}

// getThumbnail is public: anyone may see a client's thumbnail (the consent page shows it).
func (a *api) getThumbnail(c *fiber.Ctx) error {
	png, err := a.Cloud.ClientThumbnail(c.Params("clientId"))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "image/png")
	return c.Send(png)
}
