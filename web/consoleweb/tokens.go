package consoleweb

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/web"
)

// tokensView is the tokens page's data: the user's personal access tokens (by their first
// characters only, as the API lists them), the form that makes one, and — only on the page
// that answers its creation — the new token's secret, which is never shown again.
type tokensView struct {
	top
	Tokens []tokenRow
	Pager  pager
	Form   tokenForm
	Error  string
	// New is the token just created and Secret its plaintext, shown once; the page is not
	// cached (web.Site.Render sends no-store).
	New    *tokenRow
	Secret string
}

// tokenForm is what the create form holds.
type tokenForm struct {
	Label, Scopes, ExpiryDays string
}

// tokenRow is a personal access token as the list shows it.
type tokenRow struct{ cloudstore.Token }

// Since is when the token was made.
func (t tokenRow) Since() stamp { return stamp(t.Created) }

// Expires is when it stops working ("—" for never).
func (t tokenRow) Expires() stamp { return stampOf(t.Expiry) }

// tokens is GET /console/tokens (GET /profile/tokens).
func (con *console) tokens(c *fiber.Ctx, who *cloudsvc.Caller) error {
	return con.tokensPage(c, who, http.StatusOK, tokensView{Form: tokenForm{Scopes: cloudstore.AllScopes}})
}

// tokensPage draws the tokens page with status over v's form, error and new token.
func (con *console) tokensPage(c *fiber.Ctx, who *cloudsvc.Caller, status int, v tokensView) error {
	if err := allow(cloudsvc.NeedListTokens, who); err != nil {
		return err
	}
	list, err := con.Cloud.OwnTokens(who.User.Username)
	if err != nil {
		return err
	}
	page, p := paginate(c, "/console/tokens", list)
	v.top, v.Pager = newTop(who, "tokens"), p
	for _, t := range page {
		v.Tokens = append(v.Tokens, tokenRow{t})
	}
	return con.render(c, status, "Tokens", web.PageOf(tokensPage, v))
}

// createToken is POST /console/tokens: cloudsvc.CreatePAT within the session's scopes, as POST
// /profile/tokens does. The answer is the page itself, not a redirect, because it carries the
// secret, once; a refused input shows the form again with the domain's reasons (400).
func (con *console) createToken(c *fiber.Ctx, who *cloudsvc.Caller) error {
	if err := allow(cloudsvc.NeedCreateToken, who); err != nil {
		return err
	}
	form := tokenForm{Label: c.FormValue("label"), Scopes: strings.TrimSpace(c.FormValue("scopes")), ExpiryDays: strings.TrimSpace(c.FormValue("expiry_days"))}
	in := cloudstore.NewPAT{Label: form.Label}
	if form.Scopes != "" {
		in.Scopes = &form.Scopes
	}
	var parsed store.Problems
	if form.ExpiryDays != "" {
		days, err := strconv.Atoi(form.ExpiryDays)
		if err != nil || days < 1 || days > 3650 {
			parsed.Add("expiry_days", "Expiry must be a number of days from 1 to 3650, or empty for never")
		} else {
			exp := con.Cloud.Now().Add(time.Duration(days) * 24 * time.Hour).Truncate(time.Second)
			in.Expiry = &exp
		}
	}
	if err := parsed.Err(); err != nil {
		return con.tokensPage(c, who, http.StatusBadRequest, tokensView{Form: form, Error: err.Error()})
	}
	t, secret, err := con.Cloud.CreatePAT(who.User, who.Token.Scopes, in)
	if errors.Is(err, store.ErrInvalid) {
		return con.tokensPage(c, who, http.StatusBadRequest, tokensView{Form: form, Error: err.Error()})
	}
	if err != nil {
		return err
	}
	return con.tokensPage(c, who, http.StatusOK, tokensView{Form: tokenForm{Scopes: cloudstore.AllScopes}, New: &tokenRow{t}, Secret: secret})
}
