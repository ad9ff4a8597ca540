package applianceweb

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/appliancesvc"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/web"
)

// signInView is the sign-in form's data.
type signInView struct {
	Error string
	// Next is the page to go to once signed in (a path under /appliance).
	Next string
}

// home is the operator's overview when signed in, else the sign-in form.
func (h *handlers) home(c *fiber.Ctx) error {
	if !h.isSignedIn(c) {
		return h.renderSignIn(c, http.StatusOK, signInView{})
	}
	return h.renderHome(c, http.StatusOK, "")
}

func (h *handlers) renderSignIn(c *fiber.Ctx, status int, v signInView) error {
	return h.Site.Render(c, status, "Appliance sign-in", web.SectionAppliance, web.PageOf(signInPage, v))
}

// signIn checks the pasted bootstrap token with appliancesvc.CheckToken — the same check and
// the same per-IP throttle as /_appliance's bearer token — and opens a session. An empty field
// is no guess and is not counted, as a request without a token is not at /_appliance.
func (h *handlers) signIn(c *fiber.Ctx) error {
	v := signInView{Next: safeNext(c.FormValue("next"))}
	token := strings.TrimSpace(c.FormValue("token"))
	if token == "" {
		v.Error = "Paste the bootstrap token: the first start printed it, or it is the --bootstrap-token you chose."
		return h.renderSignIn(c, http.StatusBadRequest, v)
	}
	err := h.Appliance.CheckToken(token, h.ClientIP(c))
	var locked *ratelimit.LockedError
	switch {
	case errors.As(err, &locked):
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(locked.Seconds()))
		v.Error = "Too many wrong bootstrap tokens from this address; try again in " + strconv.Itoa(locked.Seconds()) + " seconds."
		return h.renderSignIn(c, http.StatusTooManyRequests, v)
	case errors.Is(err, appliancesvc.ErrBadToken):
		v.Error = "That is not the bootstrap token."
		return h.renderSignIn(c, http.StatusUnauthorized, v)
	case err != nil:
		return err
	}
	setCookie(c, h.sessions.start())
	if v.Next == "" {
		v.Next = "/appliance"
	}
	return c.Redirect(v.Next, http.StatusSeeOther)
}

// signOut ends the session.
func (h *handlers) signOut(c *fiber.Ctx) error {
	h.sessions.end(c.Cookies(sessionCookie))
	setCookie(c, "")
	return c.Redirect("/appliance", http.StatusSeeOther)
}

// signedIn lets a request with a live session through. Without one, a page asks for the token
// in place (401, then back to the page); a form post is refused 401.
func (h *handlers) signedIn(c *fiber.Ctx) error {
	if h.isSignedIn(c) {
		return c.Next()
	}
	if c.Method() == fiber.MethodGet || c.Method() == fiber.MethodHead {
		return h.renderSignIn(c, http.StatusUnauthorized, signInView{Next: safeNext(c.OriginalURL())})
	}
	return fiber.NewError(http.StatusUnauthorized, "Sign in with the bootstrap token first: your session ended (a restart signs everyone out).")
}

// safeNext keeps next only when it is a page of this area (web.SafeNext), so the sign-in form
// cannot be made to send the operator elsewhere.
func safeNext(next string) string { return web.SafeNext(next, "/appliance") }
