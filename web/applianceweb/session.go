package applianceweb

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/web"
)

// The operator's sign-in lasts as a server-side session: a random id in a cookie that scripts
// cannot read (HttpOnly), that no other site's form or link sends along (SameSite=Strict), and
// that is sent only to /appliance. The token itself is never kept in the browser. Sessions live in
// this process's memory: a restart signs everyone out, which costs one paste of the token.

// sessionCookie holds the session id.
const sessionCookie = web.ApplianceSessionCookie

// sessionIdle ends a session unused this long; sessions are timed by the wall clock, so moving
// the dev clock a week ahead does not sign the operator out.
const sessionIdle = 12 * time.Hour

// maxSessions bounds memory: signing in past it ends the session closest to expiry.
const maxSessions = 256

// sessions are the signed-in browsers, by id, with the time each expires.
type sessions struct {
	mu  sync.Mutex
	m   map[string]time.Time
	now func() time.Time
}

func newSessions(now func() time.Time) *sessions {
	return &sessions{m: map[string]time.Time{}, now: now}
}

// start opens a session and returns its id.
func (s *sessions) start() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for k, exp := range s.m {
		if !now.Before(exp) {
			delete(s.m, k)
		}
	}
	if len(s.m) >= maxSessions {
		var oldest string
		for k, exp := range s.m {
			if oldest == "" || exp.Before(s.m[oldest]) {
				oldest = k
			}
		}
		delete(s.m, oldest)
	}
	s.m[id] = now.Add(sessionIdle)
	return id
}

// valid reports whether id is a live session, and keeps it alive.
func (s *sessions) valid(id string) bool {
	if id == "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	exp, ok := s.m[id]
	now := s.now()
	if !ok || !now.Before(exp) {
		delete(s.m, id)
		return false
	}
	// Assigning to a string key stores the key given: id views the request's cookie buffer,
	// which the next request overwrites, and the session would then be lost under another id.
	s.m[strings.Clone(id)] = now.Add(sessionIdle)
	return true
}

// end closes id.
func (s *sessions) end(id string) {
	s.mu.Lock()
	delete(s.m, id)
	s.mu.Unlock()
}

// setCookie writes the session cookie (an empty id and a past expiry delete it).
func setCookie(c *fiber.Ctx, id string) {
	ck := &fiber.Cookie{Name: sessionCookie, Value: id, Path: "/appliance", HTTPOnly: true,
		SameSite: fiber.CookieSameSiteStrictMode, Secure: c.Protocol() == "https"}
	if id == "" {
		ck.Expires = time.Unix(1, 0)
		ck.MaxAge = -1
	}
	c.Cookie(ck)
}

// isSignedIn reports whether the request carries a live session.
func (h *handlers) isSignedIn(c *fiber.Ctx) bool {
	return h.sessions.valid(c.Cookies(sessionCookie))
}
