package cloudapi

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/web"
)

// authRequest is a validated authorization request (RFC 6749 §4.1.1, §4.2.1, RFC 7636).
type authRequest struct {
	client       cloudstore.Client
	responseType string // code or token
	scopes       string // canonical
	redirectURI  string // where the answer goes: the one asked for, or the registered one
	// redirectGiven is set when the request named redirect_uri: the token request must then
	// name the same (RFC 6749 §4.1.3).
	redirectGiven bool
	state         string
	challenge     string
}

// hidden is the request as the login form carries it through the POST.
func (r authRequest) hidden() map[string]string {
	h := map[string]string{"client_id": r.client.ID, "response_type": r.responseType, "scopes": r.scopes, "state": r.state}
	if r.redirectGiven {
		h["redirect_uri"] = r.redirectURI
	}
	if r.challenge != "" {
		h["code_challenge"], h["code_challenge_method"] = r.challenge, "S256"
	}
	return h
}

// pageError is an authorization error that must not be redirected (the redirect URI itself is
// not trusted): it is shown to the user as a page.
type pageError struct{ title, text string }

func (e *pageError) Error() string { return e.text }

// redirectError is an authorization error sent back to the client's redirect URI.
type redirectError struct{ code, description string }

func (e *redirectError) Error() string { return e.code }

// parseAuthRequest validates the authorization parameters, from the query (GET) or the form
// (POST). scope and scopes are both accepted (clients send either), comma-separated or "*".
func (a *api) parseAuthRequest(c *fiber.Ctx) (authRequest, error) {
	var r authRequest
	clientID := c.FormValue("client_id")
	var err error
	r.client, err = a.Cloud.Client(clientID)
	if clientID == "" || err != nil {
		return r, &pageError{"Unknown application", "The application that sent you here is not registered (client_id " + strconv.Quote(clientID) + ")."}
	}
	r.redirectURI = c.FormValue("redirect_uri", r.client.RedirectURI)
	r.redirectGiven = c.FormValue("redirect_uri") != ""
	if !cloudsvc.RedirectAllowed(r.client.RedirectURI, r.redirectURI) {
		return r, &pageError{"Redirect not allowed", "The redirect_uri does not match the one registered for " + r.client.Label + "."}
	}
	r.state, r.responseType = c.FormValue("state"), c.FormValue("response_type", "code")
	switch {
	case r.responseType != "code" && r.responseType != "token":
		return r, &redirectError{"unsupported_response_type", "response_type must be code or token"}
	case r.responseType == "token" && !r.client.Public:
		return r, &redirectError{"unauthorized_client", "the implicit flow (response_type=token) is for public clients"}
	}
	raw := c.FormValue("scopes", c.FormValue("scope", cloudstore.AllScopes))
	if r.scopes, err = cloudsvc.ParseScopes(raw, "scopes"); err != nil {
		return r, &redirectError{"invalid_scope", err.Error()}
	}
	if r.challenge = c.FormValue("code_challenge"); r.challenge != "" {
		if m := c.FormValue("code_challenge_method", "plain"); m != "S256" {
			return r, &redirectError{"invalid_request", "code_challenge_method must be S256"}
		}
		if len(r.challenge) < 43 || len(r.challenge) > 128 {
			return r, &redirectError{"invalid_request", "code_challenge must be 43 to 128 characters"}
		}
	}
	return r, nil
}

// authorizeError answers a failed authorization request: a page, or a redirect with the error.
func (a *api) authorizeError(c *fiber.Ctx, r authRequest, err error) error {
	var pe *pageError
	if errors.As(err, &pe) {
		return a.page(c, http.StatusBadRequest, web.Message{Title: pe.title, Text: pe.text})
	}
	var re *redirectError
	if !errors.As(err, &re) {
		return err
	}
	params := url.Values{"error": {re.code}, "error_description": {re.description}}
	if r.state != "" {
		params.Set("state", r.state)
	}
	return redirectWith(c, r.redirectURI, r.responseType == "token", params)
}

// redirectWith sends the browser to uri with params in the query (code flow) or the fragment
// (implicit flow, so the token never reaches a server log).
func redirectWith(c *fiber.Ctx, uri string, fragment bool, params url.Values) error {
	u, _ := url.Parse(uri) // validated by cloudsvc.RedirectAllowed
	if fragment {
		u.Fragment = ""
		u.RawFragment = ""
		return c.Redirect(u.String()+"#"+params.Encode(), http.StatusFound)
	}
	q := u.Query()
	for k, v := range params {
		q[k] = v
	}
	u.RawQuery = q.Encode()
	return c.Redirect(u.String(), http.StatusFound)
}

// page renders a web page with status.
func (a *api) page(c *fiber.Ctx, status int, page web.LoginServerPage) error {
	html, err := web.Render(page)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	c.Set("X-Frame-Options", "DENY") // a consent page must not be framed (clickjacking)
	return c.Status(status).Send(html)
}

// showLogin renders the sign-in and consent page.
func (a *api) showLogin(c *fiber.Ctx, r authRequest, status int, username, problem string) error {
	data := web.Login{ClientLabel: r.client.Label, Scopes: splitScopes(r.scopes), Hidden: r.hidden(), Username: username, Error: problem}
	if r.client.HasThumbnail {
		data.ThumbnailURL = "/v4/account/oauth-clients/" + r.client.ID + "/thumbnail"
	}
	return a.page(c, status, data)
}

// authorizePage is GET /oauth/authorize.
func (a *api) authorizePage(c *fiber.Ctx) error {
	r, err := a.parseAuthRequest(c)
	if err != nil {
		return a.authorizeError(c, r, err)
	}
	return a.showLogin(c, r, http.StatusOK, "", "")
}

// authorizeSubmit is POST /oauth/authorize: the user signs in and approves (or denies). Approval
// records a Login and sends the browser back with a code, or with a token in the fragment. A
// wrong password shows the form again (401); while the username or the IP is locked after
// failed sign-ins, the form says so, with 429 and Retry-After.
func (a *api) authorizeSubmit(c *fiber.Ctx) error {
	r, err := a.parseAuthRequest(c)
	if err != nil {
		return a.authorizeError(c, r, err)
	}
	if c.FormValue("decision") == "deny" {
		return a.authorizeError(c, r, &redirectError{"access_denied", "the user denied the request"})
	}
	username, password := c.FormValue("username"), c.FormValue("password")
	g := cloudsvc.AuthGrant{Client: r.client, Implicit: r.responseType == "token", Scopes: r.scopes, Challenge: r.challenge}
	if r.redirectGiven {
		g.RedirectURI = r.redirectURI
	}
	code, token, err := a.Cloud.Authorize(username, password, kit.ClientIP(c, a.TrustedProxies), g)
	if errors.Is(err, cloudsvc.ErrLoginFailed) {
		return a.showLogin(c, r, http.StatusUnauthorized, username, "Invalid username or password.")
	}
	var locked *ratelimit.LockedError
	if errors.As(err, &locked) {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(locked.Seconds()))
		return a.showLogin(c, r, http.StatusTooManyRequests, username, locked.Error())
	}
	if err != nil {
		return err
	}
	params := url.Values{}
	if r.responseType == "token" {
		params.Set("access_token", token)
		params.Set("token_type", "bearer")
		params.Set("expires_in", strconv.Itoa(int(cloudstore.OAuthTokenLifetime.Seconds())))
		params.Set("scopes", r.scopes)
	} else {
		params.Set("code", code)
	}
	if r.state != "" {
		params.Set("state", r.state)
	}
	return redirectWith(c, r.redirectURI, r.responseType == "token", params)
}
