package buildsvc

import (
	"strings"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Registration (POST /person?cmd=register) needs no sign-in — a newcomer has no account yet —
// and follows the configuration's registration, as the real service's: "deny" (the default)
// refuses, "allow" creates a confirmed person, "confirmation" creates an unconfirmed one that
// an administrator has to confirm.

// Registration is what an <unregisteredperson> document carries.
type Registration struct {
	Login, Email, Realname, Password string
}

// registerError is the service's answer to a registration it does not take (a 400
// err_register_save, whose summary osc and browsers show as is).
func registerError(format string, args ...any) error {
	return BadRequest("err_register_save", format, args...)
}

// Register creates the person of d as the configuration allows. A registration that waits for
// an administrator is saved and still answered with err_register_save, saying so, as the
// service does.
func (s *Service) Register(d Registration) error {
	switch {
	case !buildstore.ValidLogin(d.Login):
		return registerError("Could not save the registration, details: login: '%s' is not a valid login (2 to 100 letters, digits, _ . + -)", d.Login)
	case !strings.Contains(d.Email, "@"):
		return registerError("Could not save the registration, details: email: must be a valid email address")
	}
	password, err := NewPassword(d.Password)
	if err != nil {
		return registerError("Could not save the registration, details: password: must be 6 to 128 characters and at most 72 bytes")
	}
	p := buildstore.Person{Login: d.Login, Email: d.Email, Realname: d.Realname, Created: s.clk.Now()}
	if err := p.SetPassword(password); err != nil {
		return err
	}
	err = s.db.Write(func(tx kv.Tx) error {
		conf, err := buildstore.GetConfiguration(tx)
		if err != nil {
			return err
		}
		switch conf.RegistrationMode() {
		case "allow":
			p.State = buildstore.StateConfirmed
		case "confirmation":
			p.State = buildstore.StateUnconfirmed
		default:
			return registerError("Sorry, sign up is disabled")
		}
		if _, err := buildstore.GetPerson(tx, d.Login); err == nil {
			return registerError("Could not save the registration, details: login: has already been taken")
		}
		return buildstore.PutPerson(tx, p)
	})
	if err != nil {
		return err
	}
	if p.State == buildstore.StateUnconfirmed {
		return registerError("Thank you for signing up! An admin has to confirm your account now. Please be patient.")
	}
	return nil
}
