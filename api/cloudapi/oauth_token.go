package cloudapi

import (
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/web"
)

// bindOAuth registers the login server: {auth_url} is the appliance itself.
func (a *api) bindOAuth(app fiber.Router) {
	o := app.Group("/oauth")
	perIP := func(name string) fiber.Handler {
		limit := endpointLimit.Scale(a.RateScale)
		limit.Name = "oauth:" + name
		return func(c *fiber.Ctx) error {
			if err := a.limit(c, "ip:"+kit.ClientIP(c, a.TrustedProxies), limit); err != nil {
				return err
			}
			return c.Next()
		}
	}
	// The forms are read once the per-IP limit lets them in, no further than kit.FormBody
	// (api's bodyCap refuses a longer one on its head).
	o.Get("/authorize", perIP("authorize"), a.authorizePage)
	o.Post("/authorize", perIP("authorize"), kit.WithBody, a.authorizeSubmit)
	o.Post("/token", perIP("token"), kit.WithBody, a.token)
	o.Post("/token/expire", perIP("token"), kit.WithBody, a.expireToken)
	o.Post("/revoke", perIP("token"), kit.WithBody, a.revoke)
	o.Get("/password-setup", perIP("setup"), a.setupPage)
	o.Post("/password-setup", perIP("setup"), kit.WithBody, a.setupSubmit)
}

// tokenResponse is the token endpoint's answer. The scopes go under both "scope" (the
// documentation's name) and "scopes" (what real clients read).
type tokenResponse struct {
	AccessToken  string  `json:"access_token"`
	TokenType    string  `json:"token_type"`
	ExpiresIn    int     `json:"expires_in"`
	RefreshToken *string `json:"refresh_token"`
	Scope        string  `json:"scope"`
	Scopes       string  `json:"scopes"`
}

// token is POST /oauth/token: the code exchange (grant_type absent or authorization_code) and
// the refresh (grant_type=refresh_token), form-urlencoded or multipart.
func (a *api) token(c *fiber.Ctx) error {
	clientID, secret := c.FormValue("client_id"), c.FormValue("client_secret")
	var issued cloudstore.Issued
	var err error
	switch grant := c.FormValue("grant_type", "authorization_code"); grant {
	case "authorization_code":
		if c.FormValue("code") == "" || clientID == "" {
			return oauthError(c, &cloudsvc.OAuthError{Code: "invalid_request", Description: "client_id and code are required"})
		}
		in := cloudstore.Exchange{ClientID: clientID, ClientSecret: secret, Code: c.FormValue("code"),
			CodeVerifier: c.FormValue("code_verifier"), RedirectURI: c.FormValue("redirect_uri")}
		issued, err = a.Cloud.ExchangeCode(in)
	case "refresh_token":
		refresh := c.FormValue("refresh_token")
		if refresh == "" || clientID == "" {
			return oauthError(c, &cloudsvc.OAuthError{Code: "invalid_request", Description: "client_id and refresh_token are required"})
		}
		issued, err = a.Cloud.RefreshToken(clientID, secret, refresh)
	default:
		return oauthError(c, &cloudsvc.OAuthError{Code: "unsupported_grant_type", Description: "grant_type must be authorization_code or refresh_token"})
	}
	if err != nil {
		return oauthError(c, err)
	}
	resp := tokenResponse{AccessToken: issued.Access, TokenType: "bearer", ExpiresIn: int(cloudstore.OAuthTokenLifetime.Seconds()),
		Scope: issued.Token.Scopes, Scopes: issued.Token.Scopes}
	if issued.Refresh != "" {
		resp.RefreshToken = &issued.Refresh
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(resp)
}

// oauthError answers in RFC 6749 §5.2's format; invalid_client is 401, the others 400. A
// non-OAuth error goes to the cloud error renderer.
func oauthError(c *fiber.Ctx, err error) error {
	var oe *cloudsvc.OAuthError
	if !errors.As(err, &oe) {
		return err
	}
	status := http.StatusBadRequest
	if oe.Code == "invalid_client" {
		status = http.StatusUnauthorized
		c.Set(fiber.HeaderWWWAuthenticate, `Basic realm="pocketforge login"`)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(status).JSON(fiber.Map{"error": oe.Code, "error_description": oe.Description})
}

// expireToken is POST /oauth/token/expire: a client ends one of its tokens (secret required).
func (a *api) expireToken(c *fiber.Ctx) error {
	err := a.Cloud.ExpireClientToken(c.FormValue("client_id"), c.FormValue("client_secret"), c.FormValue("token"))
	if err != nil {
		return oauthError(c, err)
	}
	return c.JSON(fiber.Map{})
}

// revoke is POST /oauth/revoke (RFC 7009): an access or refresh token of the client ends; an
// unknown token is not an error.
func (a *api) revoke(c *fiber.Ctx) error {
	err := a.Cloud.RevokeClientToken(c.FormValue("client_id"), c.FormValue("client_secret"), c.FormValue("token"))
	if err != nil {
		return oauthError(c, err)
	}
	return c.JSON(fiber.Map{})
}

// setupPage shows the password form of a welcome e-mail's link.
func (a *api) setupPage(c *fiber.Ctx) error {
	token := c.Query("token")
	u, err := a.Cloud.PendingSetup(token)
	if err != nil {
		return a.page(c, http.StatusNotFound, web.Message{Title: "Link expired", Text: "This password link is unknown, used or expired. Ask an administrator of your account to create a new user."})
	}
	return a.page(c, http.StatusOK, web.Setup{Username: u.Username, Token: token})
}

// setupSubmit sets the password; the link then stops working.
func (a *api) setupSubmit(c *fiber.Ctx) error {
	token, password := c.FormValue("token"), c.FormValue("password")
	u, err := a.Cloud.CompleteSetup(token, password)
	switch {
	case err == nil:
		return a.page(c, http.StatusOK, web.Message{Title: "Password set", Text: "You can now sign in as " + u.Username + "."})
	case u.Username != "":
		return a.page(c, http.StatusBadRequest, web.Setup{Username: u.Username, Token: token, Error: err.Error()})
	}
	return a.page(c, http.StatusNotFound, web.Message{Title: "Link expired", Text: "This password link is unknown, used or expired."})
}

// cancelSurvey is the page the survey_link of a cancelled account leads to.
func (a *api) cancelSurvey(c *fiber.Ctx) error {
	return a.page(c, http.StatusOK, web.Message{Title: "Your account is cancelled",
		Text: "Thank you for using the cloud. Tell us why you left by replying to the cancellation e-mail in your outbox."})
}
