package buildsvc

import (
	"strings"
	"unicode/utf8"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// The person commands (POST /person/<login>?cmd=…): a new password, lock and delete. Lock and
// delete are Admin's and reach past the person record (see buildstore.LockPerson and
// buildstore.DeletePerson): the home projects are locked or removed, a deleted person's tokens
// dropped. Admin itself cannot be locked or deleted, so the instance keeps its administrator.

// NewPassword takes the first line of text as a password. Six to 128 characters, and at most
// 72 bytes: bcrypt ignores (Go's refuses) anything longer.
func NewPassword(text string) (string, error) {
	line, _, _ := strings.Cut(text, "\n")
	line = strings.TrimSuffix(line, "\r")
	if n := utf8.RuneCountInString(line); n < 6 || n > 128 || len(line) > 72 || !utf8.ValidString(line) {
		return "", BadRequest("invalid_password", "the new password must be 6 to 128 characters and at most 72 bytes (the first line of the body)")
	}
	return line, nil
}

// ChangePassword sets the password of login to the first line of text, on behalf of the
// person themself or Admin.
func (s *Service) ChangePassword(who buildstore.Person, login, text string) error {
	password, err := NewPassword(text)
	if err != nil {
		return err
	}
	if err := SelfOrAdmin(who, login); err != nil {
		return err
	}
	var hashed buildstore.Person // bcrypt runs here, not while the write transaction is held
	if err := hashed.SetPassword(password); err != nil {
		return err
	}
	return s.db.Write(func(tx kv.Tx) error {
		p, err := buildstore.GetPerson(tx, login)
		if err != nil {
			return err
		}
		p.PasswordHash = hashed.PasswordHash
		return buildstore.PutPerson(tx, p)
	})
}

// LockPerson locks login out and locks their home projects (Admin's command).
func (s *Service) LockPerson(who buildstore.Person, login string) error {
	if err := mayRetire(who, login, "lock"); err != nil {
		return err
	}
	return s.db.Write(func(tx kv.Tx) error { return buildstore.LockPerson(tx, login) })
}

// DeletePerson marks login deleted, wipes their data and tokens and removes their home
// projects (Admin's command).
func (s *Service) DeletePerson(who buildstore.Person, login string) error {
	if err := mayRetire(who, login, "delete"); err != nil {
		return err
	}
	return s.db.Write(func(tx kv.Tx) error { return buildstore.DeletePerson(tx, login) })
}

// mayRetire: only Admin locks or deletes (cmd), and never the Admin person.
func mayRetire(who buildstore.Person, login, cmd string) error {
	if err := AdminOnly(who, cmd+" persons"); err != nil {
		return err
	}
	if login == buildstore.AdminLogin {
		return Forbidden("no_permission", "the %s person cannot be locked or deleted", buildstore.AdminLogin)
	}
	return nil
}
