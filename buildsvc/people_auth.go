package buildsvc

import (
	"errors"
	"time"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/internal/ratelimit"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// Who may sign in. The HTTP layer decodes the credentials (Basic, a session cookie, a Token
// header) and keeps its sessions; whether they name a person who may act is decided here, and
// the credentials verified are remembered here (people_memory.go), where every write that
// changes them is known.

// ErrBadCredentials is a login that names no person, or a password that is not theirs. It
// wraps no store sentinel on purpose: the answer is the HTTP layer's authentication challenge
// (a 401, which has no sentinel), never a record's 404 that would tell a guesser the login
// exists.
var ErrBadCredentials = errors.New("bad credentials")

// InactiveUser answers the right password of a person who is not confirmed (locked, deleted or
// waiting for an administrator): the real service's Authenticator::InactiveUserError, a 403
// whose summary osc prints, so the person learns why, where a second challenge would only look
// like a typo in the password.
func InactiveUser() error {
	return fault.Forbidden("inactive_user",
		"User is registered but not in confirmed state. Your account is a registered account, but it is in a not active state.")
}

// Active reports whether p may act: only a confirmed person signs in or has their tokens
// honoured; locked, deleted and unconfirmed persons do not.
func Active(p buildstore.Person) bool { return p.State == buildstore.StateConfirmed }

// The password throttle (issue 13: a thousand guesses at Admin's password were all answered,
// each with 60 ms of bcrypt). Five wrong passwords in a row for one login lock it for 30 s;
// every further failure after a lock doubles the lock, up to 15 min, and a successful sign-in
// ends the count. One client IP may fail 20 times in a row (over any logins: spreading guesses
// over many users does not help; a team behind one address has room for typos) before the same
// locks apply to it. A locked login or IP is refused whatever the password, without running
// bcrypt. Failures are forgotten after an hour without one.
var (
	loginLockPolicy = ratelimit.LockPolicy{Free: 5, First: 30 * time.Second, Max: 15 * time.Minute, Forget: time.Hour}
	ipLockPolicy    = ratelimit.LockPolicy{Free: 20, First: 30 * time.Second, Max: 15 * time.Minute, Forget: time.Hour}
)

// Authenticate signs login in with password from the client address ip: ErrBadCredentials for
// an unknown login or a wrong password, InactiveUser for the right password of a person who is
// not active, and a *ratelimit.LockedError (the API's 429 with Retry-After) while the login or
// the IP is locked by the throttle above. An unknown login costs a bcrypt run like a wrong
// password, so the answer's timing does not tell who exists. Credentials verified before are
// remembered (signInMemory): they cost no bcrypt run and no record decode, take no turn in the
// throttle and are refused while the login or the IP is locked, like any other.
func (s *Service) Authenticate(login, password, ip string) (buildstore.Person, error) {
	cred := s.memory.credential(login, password)
	if p, ok := s.memory.verified(cred, login); ok {
		if err := s.signIns.Admit(login, ip); err != nil {
			return buildstore.Person{}, err
		}
		return activeOnly(p)
	}
	attempt, err := s.signIns.Begin(login, ip)
	if err != nil {
		return buildstore.Person{}, err
	}
	p, err := s.checkPassword(login, password, cred)
	// Only a wrong password (or an unknown login) is a failed guess; the right password of an
	// inactive person is not.
	attempt.End(err == nil || !errors.Is(err, ErrBadCredentials))
	return p, err
}

// checkPassword is Authenticate without the throttle. It looks in the memory again first: an
// attempt that waited for its turn often finds its credential verified by the one before.
func (s *Service) checkPassword(login, password string, cred [32]byte) (buildstore.Person, error) {
	if p, ok := s.memory.verified(cred, login); ok {
		return activeOnly(p)
	}
	p, v, err := s.memory.person(s.db, login)
	if err != nil || len(p.PasswordHash) == 0 {
		ratelimit.WastePasswordCheck(password)
		return buildstore.Person{}, ErrBadCredentials
	}
	if !p.PasswordMatches(password) {
		return buildstore.Person{}, ErrBadCredentials
	}
	s.memory.remember(v, p, &cred)
	return activeOnly(p)
}

// activeOnly passes p when it may act, else answers InactiveUser.
func activeOnly(p buildstore.Person) (buildstore.Person, error) {
	if !Active(p) {
		return buildstore.Person{}, InactiveUser()
	}
	return p, nil
}

// ActivePerson reads the person of a session that was signed in earlier, as long as they may
// still act: a session of a person locked or deleted since is worth nothing (InactiveUser).
// The record comes from the sign-in memory while no person was written since it was read.
func (s *Service) ActivePerson(login string) (buildstore.Person, error) {
	p, _, err := s.memory.person(s.db, login)
	if err != nil {
		return p, err
	}
	return activeOnly(p)
}

// Replaced tells the build service that its data was replaced wholesale (POST /_appliance/reset,
// reseed or restore): the sign-in throttle forgets every failure and lock, of logins and of
// client IPs alike. They were guesses at the passwords of persons that are gone or were loaded
// afresh; a demo reset to a clean state must not keep Admin locked. Only the operator, with the
// bootstrap token, can replace the data, so this gives a guesser nothing. The persons were
// replaced without PutPerson, so the persons' version is moved here: the sign-in memory forgets
// them.
func (s *Service) Replaced() {
	buildstore.PersonsReplaced()
	s.signIns.Reset()
}

// SignInCounts are the password sign-ins that failed or were refused by the throttle since
// start, for the metrics (a Replaced does not clear them).
func (s *Service) SignInCounts() ratelimit.Counts { return s.signIns.Counts() }
