package buildapi

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// localPerson is the fiber.Ctx Locals key of the authenticated person.
const localPerson = "build.person"

// sessionCookie is the cookie the build service sets after a successful sign-in; osc's cookie
// jar replays it, which spares it the 401 round trip on every later request.
const sessionCookie = "openSUSE_session"

// sessionLifetime is how long a session cookie stays valid.
const sessionLifetime = 24 * time.Hour

// errAuthRequired is the build service's 401. osc never sends credentials first: it needs the
// challenge (with a realm) to send them.
var errAuthRequired = &kit.Error{Status: http.StatusUnauthorized, Code: "authentication_required", Reason: "Authentication required"}

// personOf returns the request's authenticated person.
func personOf(c *fiber.Ctx) buildstore.Person {
	p, _ := c.Locals(localPerson).(buildstore.Person)
	return p
}

// authenticated lets a request through with a valid session cookie or HTTP Basic credentials of
// a person who may sign in (buildsvc.Authenticate decides); otherwise 401 with the Basic
// challenge, or 403 inactive_user for the right password of a locked or deleted person (a
// cookie of theirs is ignored, so osc falls back to Basic and hears why), or 429
// too_many_requests with Retry-After while the login or the client IP is locked after failed
// sign-ins (buildsvc's throttle; the right password is refused too). Any other scheme
// (Token, Bearer) is not a credential here: tokens only sign in at /trigger (trigger.go).
// bcrypt runs once per credential: buildsvc remembers a verified one until a person is written
// (a password change, a lock, a deletion take effect on the next request). Only the request's head
// is looked at: the body is read (kit.WithBody) once the person may go on, so an upload without
// good credentials is refused before a byte of it is read.
func (a *api) authenticated(c *fiber.Ctx) error {
	c.Set("X-Opensuse-APIVersion", APIVersion)
	if login, ok := a.sessions.get(c.Cookies(sessionCookie), a.Clock.Now()); ok {
		if p, err := a.Svc.ActivePerson(login); err == nil {
			c.Locals(localPerson, p)
			kit.SetCaller(c, kit.Caller{User: p.Login})
			if err := a.guardProject(c, p); err != nil {
				return err
			}
			return kit.WithBody(c)
		}
	}
	login, password, ok := basicAuth(c.Get(fiber.HeaderAuthorization))
	if !ok {
		return a.challenge(c)
	}
	p, err := a.Svc.Authenticate(login, password, kit.ClientIP(c, a.TrustedProxies))
	if errors.Is(err, buildsvc.ErrBadCredentials) {
		return a.challenge(c)
	}
	var locked *ratelimit.LockedError
	if errors.As(err, &locked) {
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(locked.Seconds()))
		return &kit.Error{Status: http.StatusTooManyRequests, Code: "too_many_requests", Reason: locked.Error()}
	}
	if err != nil {
		return err
	}
	c.Cookie(&fiber.Cookie{Name: sessionCookie, Value: a.sessions.add(p.Login, c.Get(fiber.HeaderAuthorization), a.Clock.Now()), Path: "/", HTTPOnly: true,
		SameSite: fiber.CookieSameSiteLaxMode})
	c.Locals(localPerson, p)
	kit.SetCaller(c, kit.Caller{User: p.Login})
	if err := a.guardProject(c, p); err != nil {
		return err
	}
	return kit.WithBody(c)
}

// challenge is the 401 with the Basic challenge osc waits for before it sends credentials.
func (a *api) challenge(c *fiber.Ctx) error {
	c.Set(fiber.HeaderWWWAuthenticate, `Basic realm="API login"`)
	return errAuthRequired
}

// basicAuth decodes "Authorization: Basic base64(login:password)".
func basicAuth(header string) (login, password string, ok bool) {
	scheme, value, found := strings.Cut(header, " ")
	if !found || !strings.EqualFold(scheme, "Basic") {
		return "", "", false
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(value))
	if err != nil {
		return "", "", false
	}
	login, password, ok = strings.Cut(string(raw), ":")
	return login, password, ok && login != ""
}

// maxCached bounds the sessions kept: past it, expired ones are dropped, then all.
const maxCached = 10000

// sessionStore holds the session cookies handed out, in memory: a restart signs everyone out,
// and osc simply answers the next challenge again.
type sessionStore struct {
	mu sync.Mutex
	m  map[string]session
	// byCredential names the session last handed out for a Basic credential, by a keyed hash
	// of the Authorization header (never the header: it holds the password). A client that
	// sends Basic on every request and keeps no cookie — curl in a loop, a CI bot — is given
	// that same live session again instead of a new one per request, which cost a random id
	// and a Set-Cookie of its own each time and crowded osc's sessions out of the store.
	byCredential map[[sha256.Size]byte]string
	secret       []byte
}

type session struct {
	login   string
	expires time.Time
}

func newSessionStore() *sessionStore {
	secret := make([]byte, 32)
	rand.Read(secret) // crypto/rand does not fail on Linux
	return &sessionStore{m: map[string]session{}, byCredential: map[[sha256.Size]byte]string{}, secret: secret}
}

// add returns the cookie value of a session for login signed in with credential (the
// Authorization header): the live session this credential was last given, or a new one.
func (s *sessionStore) add(login, credential string, now time.Time) string {
	h := sha256.New()
	h.Write(s.secret)
	h.Write([]byte(credential))
	var key [sha256.Size]byte
	h.Sum(key[:0])
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.byCredential[key]; ok {
		if ses, ok := s.m[id]; ok && ses.login == login && now.Before(ses.expires) {
			return id
		}
	}
	if len(s.m) >= maxCached {
		for k, v := range s.m {
			if !now.Before(v.expires) {
				delete(s.m, k)
			}
		}
		if len(s.m) >= maxCached {
			clear(s.m)
		}
	}
	if len(s.byCredential) >= maxCached { // its entries may name sessions gone since
		clear(s.byCredential)
	}
	id := store.RandomHex(24)
	s.m[id] = session{login, now.Add(sessionLifetime)}
	s.byCredential[key] = id
	return id
}

// get returns the login of a live session.
func (s *sessionStore) get(id string, now time.Time) (string, bool) {
	if id == "" {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ses, ok := s.m[id]
	if !ok || !now.Before(ses.expires) {
		return "", false
	}
	return ses.login, true
}
