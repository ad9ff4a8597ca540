package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"

	"github.com/gofiber/fiber/v2"
)

// Cross-site request forgery: every form the pages draw carries a token that must equal the
// one in the pf_csrf cookie (the double-submit rule); a POST without the pair is refused 403
// before its handler runs. The cookie is SameSite=Strict and HttpOnly, so another site can
// neither send it along with a forged form nor read it to copy the token.

// csrfCookie is the cookie that holds a browser's token.
const csrfCookie = "pf_csrf"

// csrfLocal keeps the token chosen for this request, so every form of one page gets the same.
const csrfLocal = "web.csrf"

// CSRFToken is the request's form token: the cookie's, or a new one set in a cookie now.
func CSRFToken(c *fiber.Ctx) string {
	if t, ok := c.Locals(csrfLocal).(string); ok {
		return t
	}
	t := c.Cookies(csrfCookie)
	if !validToken(t) {
		var b [16]byte
		_, _ = rand.Read(b[:])
		t = hex.EncodeToString(b[:])
		c.Cookie(&fiber.Cookie{Name: csrfCookie, Value: t, Path: "/", HTTPOnly: true,
			SameSite: fiber.CookieSameSiteStrictMode, Secure: c.Protocol() == "https"})
	}
	c.Locals(csrfLocal, t)
	return t
}

func validToken(t string) bool {
	if len(t) != 32 {
		return false
	}
	_, err := hex.DecodeString(t)
	return err == nil
}

// errCSRF is the refusal of a form post without a matching token.
var errCSRF = fiber.NewError(fiber.StatusForbidden, "This form expired or did not come from this site: reload the page and send it again.")

// CheckCSRF refuses (403) a POST, PUT, PATCH or DELETE whose csrf form field (or X-CSRF-Token
// header, for scripts of the pages) does not equal its cookie's token.
func CheckCSRF(c *fiber.Ctx) error {
	switch c.Method() {
	case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
		return c.Next()
	}
	cookie := c.Cookies(csrfCookie)
	if !validToken(cookie) { // refused on the head: the form's body is never read
		return errCSRF
	}
	sent := c.FormValue("csrf")
	if sent == "" {
		sent = c.Get("X-CSRF-Token")
	}
	if !validToken(cookie) || subtle.ConstantTimeCompare([]byte(cookie), []byte(sent)) != 1 {
		return errCSRF
	}
	return c.Next()
}
