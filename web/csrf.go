package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"

	"github.com/gofiber/fiber/v2"
)

// Cross-site request forgery: every form the pages draw carries a token that must equal the
// one in the pf_csrf cookie (the double-submit rule); a POST without the pair is refused 403
// before its handler runs. The cookie is SameSite=Strict and HttpOnly, so another site can
// neither send it along with a forged form nor read it to copy the token.

//
// A signed-in browser's token is not the cookie's but derived from its session (an HMAC of the
// session id under a key of this process): a token an attacker planted in a pf_csrf cookie — from
// a sibling subdomain, say — is then worth nothing against a signed-in user, since the attacker
// knows neither the session id nor the key (issue 32: a *-scoped token was created that way).
// The cookie's token stands only before sign-in (the sign-in forms themselves).

// csrfCookie is the cookie that holds a browser's token before it signs in.
const csrfCookie = "pf_csrf"

// The session cookies of the web interface's areas, each sent only under its own path: a
// request carries at most one.
const (
	ConsoleSessionCookie   = "pf_console"
	ApplianceSessionCookie = "pf_appliance"
)

// csrfKey keys the tokens derived from sessions; sessions live in this process's memory, so a
// restart ends both.
var csrfKey = func() []byte {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return k
}()

// sessionToken is the form token of the request's session, "" without one.
func sessionToken(c *fiber.Ctx) string {
	for _, name := range [...]string{ConsoleSessionCookie, ApplianceSessionCookie} {
		if sid := c.Cookies(name); sid != "" {
			return FormToken(name, sid)
		}
	}
	return ""
}

// FormToken is the form token of the session sid held in the cookie named cookie (what the
// pages of a signed-in browser carry).
func FormToken(cookie, sid string) string {
	m := hmac.New(sha256.New, csrfKey)
	m.Write([]byte(cookie + "\x00" + sid))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// csrfLocal keeps the token chosen for this request, so every form of one page gets the same.
const csrfLocal = "web.csrf"

// CSRFToken is the request's form token: the cookie's, or a new one set in a cookie now.
func CSRFToken(c *fiber.Ctx) string {
	if t, ok := c.Locals(csrfLocal).(string); ok {
		return t
	}
	if t := sessionToken(c); t != "" {
		c.Locals(csrfLocal, t)
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
	want := sessionToken(c)
	if want == "" {
		want = c.Cookies(csrfCookie)
	}
	if !validToken(want) { // refused on the head: the form's body is never read
		return errCSRF
	}
	sent := c.FormValue("csrf")
	if sent == "" {
		sent = c.Get("X-CSRF-Token")
	}
	if subtle.ConstantTimeCompare([]byte(want), []byte(sent)) != 1 {
		return errCSRF
	}
	return c.Next()
}
