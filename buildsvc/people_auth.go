package buildsvc

import (
	"errors"

	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// Who may sign in. The HTTP layer decodes the credentials (Basic, a session cookie, a Token
// header) and keeps its caches; whether they name a person who may act is decided here.

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

// PasswordCheck tells whether password is p's. The HTTP layer passes one that remembers
// verified credentials, so bcrypt runs once per credential and not on every request.
type PasswordCheck func(p buildstore.Person, password string) bool

// Authenticate signs login in with password: ErrBadCredentials for an unknown login or a
// wrong password, InactiveUser for the right password of a person who is not active. A nil
// check compares with bcrypt each time.
func (s *Service) Authenticate(login, password string, check PasswordCheck) (buildstore.Person, error) {
	if check == nil {
		check = buildstore.Person.PasswordMatches
	}
	var p buildstore.Person
	err := s.db.View(func(tx *bbolt.Tx) (err error) { p, err = buildstore.GetPerson(tx, login); return })
	if err != nil || !check(p, password) {
		return buildstore.Person{}, ErrBadCredentials
	}
	if !Active(p) {
		return buildstore.Person{}, InactiveUser()
	}
	return p, nil
}

// ActivePerson reads the person of a session that was signed in earlier, as long as they may
// still act: a session of a person locked or deleted since is worth nothing (InactiveUser).
func (s *Service) ActivePerson(login string) (buildstore.Person, error) {
	var p buildstore.Person
	err := s.db.View(func(tx *bbolt.Tx) (err error) { p, err = buildstore.GetPerson(tx, login); return })
	if err == nil && !Active(p) {
		err = InactiveUser()
	}
	return p, err
}
