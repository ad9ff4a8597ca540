package consoleweb

import (
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/web"
)

// Sessions live on the server: the browser holds only a random id in an HttpOnly cookie, and
// the id maps, in this process's memory, to the console token the sign-in issued (never shown
// to the browser). Nothing of a session is written to the data file beyond the token itself,
// so a restart forgets every session: each user signs in again, and the tokens the old
// sessions held lapse with their two hours, their plaintext gone with the process. A reset,
// reseed or restore of the data removes the tokens, which ends every session at its next page.

// sessionCookie is the cookie holding a browser's session id. It is sent only to /console,
// HttpOnly (no script reads it) and SameSite=Lax: a link from elsewhere still opens a console
// page signed in, while a cross-site POST carries no session (and no CSRF token either).
const sessionCookie = web.ConsoleSessionCookie

// session is one signed-in browser.
type session struct {
	token   string    // the console access token (cloudsvc.SignIn)
	expires time.Time // the token's expiry: the session is dropped after it
}

// sessions are the signed-in browsers by session id.
type sessions struct {
	mu  sync.Mutex
	m   map[string]session
	now func() time.Time
}

func newSessions(now func() time.Time) *sessions {
	return &sessions{m: map[string]session{}, now: now}
}

// start keeps token under a new random id and returns the id; expired sessions are dropped on
// the way, so the map never outgrows the sessions of the last two hours.
func (s *sessions) start(token string) string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range s.m {
		if !now.Before(v.expires) {
			delete(s.m, k)
		}
	}
	s.m[id] = session{token: token, expires: now.Add(cloudstore.OAuthTokenLifetime)}
	return id
}

// get returns session id's token ("" when there is none).
func (s *sessions) get(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[id].token
}

// end forgets session id and returns its token.
func (s *sessions) end(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.m[id].token
	delete(s.m, id)
	return t
}

// setCookie gives the browser its session id ("" clears it).
func (con *console) setCookie(c *fiber.Ctx, id string) {
	ck := &fiber.Cookie{Name: sessionCookie, Value: id, Path: "/console", HTTPOnly: true,
		SameSite: fiber.CookieSameSiteLaxMode, Secure: con.Secure || c.Protocol() == "https"}
	if id == "" {
		ck.Expires = time.Unix(0, 0)
		ck.MaxAge = -1
	}
	c.Cookie(ck)
}

// handler is a console page handler: the request and who is signed in.
type handler func(c *fiber.Ctx, who *cloudsvc.Caller) error

// signedIn runs h for a signed-in browser, authenticated as the API authenticates a request
// (cloudsvc.Authenticate on the session's token); any other browser is sent to the sign-in
// page, with the page it asked for to come back to. A session whose token no longer
// authenticates (expired, user deleted, data replaced) is ended.
func (con *console) signedIn(h handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id := c.Cookies(sessionCookie)
		if token := con.sessions.get(id); token != "" {
			who, err := con.Cloud.Authenticate(token)
			if err == nil {
				return h(c, who)
			}
			con.sessions.end(id)
			con.setCookie(c, "")
		}
		next := ""
		if c.Method() == fiber.MethodGet {
			next = "?next=" + url.QueryEscape(c.OriginalURL())
		}
		return c.Redirect("/console/signin"+next, fiber.StatusSeeOther)
	}
}

// safeNext is where to go after signing in: next when it is a console page of this site
// (web.SafeNext), the account page otherwise.
func safeNext(next string) string {
	if next = web.SafeNext(next, "/console"); next == "" {
		return "/console"
	}
	return next
}
