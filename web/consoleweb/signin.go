package consoleweb

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/web"
)

// Signing in. The console does not run the OAuth authorization-code flow against its own
// /oauth/authorize: it would have to be a registered client (a record in every data file, a
// secret to keep, a consent page that asks the user to authorize the appliance to itself) and
// would gain nothing, since the flow's point — a third party never sees the password — does
// not apply to the appliance's own pages. It calls the login server's sign-in itself instead,
// cloudsvc.SignIn, which is Authorize with the console as the grant's client: the same bcrypt
// check, the same lockout of a username or client IP after failed attempts, the same login
// record, and an access token of the user (all scopes, two hours) that every console page
// authenticates with, so the user's restriction and grants decide what each page shows exactly
// as they decide what the API answers.

// signinView is the sign-in page's data.
type signinView struct {
	Username string
	Next     string
	Error    string
}

// signinPage is GET /console/signin: the form, or the console for a browser already signed in.
func (con *console) signinPage(c *fiber.Ctx) error {
	if token := con.sessions.get(c.Cookies(sessionCookie)); token != "" {
		if _, err := con.Cloud.Authenticate(token); err == nil {
			return c.Redirect(safeNext(c.Query("next")), fiber.StatusSeeOther)
		}
	}
	return con.render(c, http.StatusOK, "Sign in", web.PageOf(signInPage, signinView{Next: c.Query("next")}))
}

// signin is POST /console/signin. A wrong username or password shows the form again (401);
// while the username or the client's IP is locked after failed attempts, the form says so (429,
// Retry-After). A success starts a new session (a new id: one planted before sign-in is worth
// nothing) and goes to the page asked for.
func (con *console) signin(c *fiber.Ctx) error {
	v := signinView{Username: c.FormValue("username"), Next: c.FormValue("next")}
	token, err := con.Cloud.SignIn(v.Username, c.FormValue("password"), con.ClientIP(c))
	var locked *ratelimit.LockedError
	switch {
	case errors.Is(err, cloudsvc.ErrLoginFailed):
		v.Error = "Invalid username or password."
		return con.render(c, http.StatusUnauthorized, "Sign in", web.PageOf(signInPage, v))
	case errors.As(err, &locked):
		v.Error = locked.Error()
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(locked.Seconds()))
		return con.render(c, http.StatusTooManyRequests, "Sign in", web.PageOf(signInPage, v))
	case err != nil:
		return err
	}
	if old := con.sessions.end(c.Cookies(sessionCookie)); old != "" {
		_ = con.Cloud.SignOut(old)
	}
	con.setCookie(c, con.sessions.start(token))
	return c.Redirect(safeNext(v.Next), fiber.StatusSeeOther)
}

// signout is POST /console/signout: the session and its token end at once (a token copied
// from this process's memory would stop working too).
func (con *console) signout(c *fiber.Ctx) error {
	if token := con.sessions.end(c.Cookies(sessionCookie)); token != "" {
		if err := con.Cloud.SignOut(token); err != nil {
			return err
		}
	}
	con.setCookie(c, "")
	return c.Redirect("/console/signin", fiber.StatusSeeOther)
}
