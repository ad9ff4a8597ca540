package buildapi

import (
	"encoding/xml"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// Person writes: a person edits their own record and password; Admin edits anyone, sets state
// and global roles, locks, deletes, and creates persons (self-registration is off, see
// registerPerson).

// registerError is the service's answer to a registration it does not take (a 400
// err_register_save, whose summary osc and browsers show as is).
func registerError(format string, args ...any) error {
	return buildsvc.BadRequest("err_register_save", format, args...)
}

// personStates are the states a person document may set.
var personStates = []string{buildstore.StateConfirmed, buildstore.StateUnconfirmed, buildstore.StateLocked, buildstore.StateDeleted}

// unregisteredPersonXML is the registration document.
type unregisteredPersonXML struct {
	XMLName  xml.Name `xml:"unregisteredperson"`
	Login    string   `xml:"login"`
	Email    string   `xml:"email"`
	Realname string   `xml:"realname"`
	Password string   `xml:"password"`
}

// registerPerson answers POST /person?cmd=register, which needs no sign-in (a newcomer has no
// account yet), as the real service's: the configuration's registration decides — "deny"
// (the default) refuses, "allow" creates a confirmed person, "confirmation" creates an
// unconfirmed one and says an administrator has to confirm it (with a 400, as the service
// does, although the person is saved).
func (a *api) registerPerson(c *fiber.Ctx) error {
	c.Set("X-Opensuse-APIVersion", APIVersion)
	if c.Query("cmd") != "register" {
		return buildsvc.BadRequest("unknown_command", "POST /person takes cmd=register, not '%s'", c.Query("cmd"))
	}
	var d unregisteredPersonXML
	if err := parseMeta(c.Body(), &d, "person"); err != nil {
		return err
	}
	switch {
	case !buildstore.ValidLogin(d.Login):
		return registerError("Could not save the registration, details: login: '%s' is not a valid login (2 to 100 letters, digits, _ . + -)", d.Login)
	case !strings.Contains(d.Email, "@"):
		return registerError("Could not save the registration, details: email: must be a valid email address")
	}
	password, err := newPassword([]byte(d.Password))
	if err != nil {
		return registerError("Could not save the registration, details: password: must be 6 to 128 characters and at most 72 bytes")
	}
	p := buildstore.Person{Login: d.Login, Email: d.Email, Realname: d.Realname, Created: a.Clock.Now()}
	if err := p.SetPassword(password); err != nil {
		return err
	}
	err = a.Store.Write(func(tx *bbolt.Tx) error {
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
	return sendOK(c)
}

// selfOrAdmin lets the person themself or Admin through.
func selfOrAdmin(who buildstore.Person, login string) error {
	if who.Login == login || who.IsAdmin() {
		return nil
	}
	return buildsvc.Forbidden("no_permission", "no permission to change person '%s': only that person or an administrator may", login)
}

// adminOnly lets only Admin through; what names the operation in the refusal.
func adminOnly(who buildstore.Person, what string) error {
	if who.IsAdmin() {
		return nil
	}
	return buildsvc.Forbidden("no_permission", "only an administrator may %s", what)
}

// putPerson updates a person from a <person> document; Admin may also create one (without a
// password: Admin sets it next with cmd=change_password).
func (a *api) putPerson(c *fiber.Ctx) error {
	login, who := pathParam(c, "login"), personOf(c)
	var d personXML
	if err := parseMeta(c.Body(), &d, "person"); err != nil {
		return err
	}
	if d.Login != login {
		return buildsvc.BadRequest("login_mismatch", "login in xml data ('%s') does not match resource path component ('%s')", d.Login, login)
	}
	if d.Email != "" && !strings.Contains(d.Email, "@") {
		return buildsvc.Invalid("person", "'%s' is not an email address", d.Email)
	}
	if err := selfOrAdmin(who, login); err != nil {
		return err
	}
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		p, err := buildstore.GetPerson(tx, login)
		if err != nil {
			if err := adminOnly(who, "create persons"); err != nil {
				return err
			}
			if !buildstore.ValidLogin(login) {
				return buildsvc.BadRequest("invalid_login", "'%s' is not a valid login (2 to 100 letters, digits, _ . + -)", login)
			}
			p = buildstore.Person{Login: login, State: buildstore.StateConfirmed, Created: a.Clock.Now()}
		}
		if err := applyPersonDoc(&p, d, who.IsAdmin()); err != nil {
			return err
		}
		return buildstore.PutPerson(tx, p)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// applyPersonDoc copies the document onto p. State and global roles are Admin's: anyone else
// may send them back unchanged (osc round-trips the whole document) but not change them. The
// Admin person keeps the Admin role, so the instance never loses its administrator.
func applyPersonDoc(p *buildstore.Person, d personXML, admin bool) error {
	p.Email, p.Realname = d.Email, d.Realname
	roles := d.GlobalRoles
	if roles == nil {
		roles = []string{}
	}
	for _, r := range roles {
		if r != buildstore.RoleAdmin {
			return buildsvc.Invalid("person", "unknown global role '%s' (only %s)", r, buildstore.RoleAdmin)
		}
	}
	if d.State != "" && !slices.Contains(personStates, d.State) {
		return buildsvc.Invalid("person", "unknown state '%s' (one of %s)", d.State, strings.Join(personStates, ", "))
	}
	if !admin {
		if (d.State != "" && d.State != p.State) || (d.GlobalRoles != nil && !slices.Equal(roles, p.GlobalRoles)) {
			return buildsvc.Forbidden("no_permission", "only an administrator may change the state or global roles of a person")
		}
		return nil
	}
	if d.State != "" {
		p.State = d.State
	}
	if p.Login == buildstore.AdminLogin && !slices.Contains(roles, buildstore.RoleAdmin) {
		roles = append(roles, buildstore.RoleAdmin)
	}
	p.GlobalRoles = slices.Compact(roles)
	return nil
}

// personCommand runs POST /person/<login>?cmd=change_password|lock|delete. lock and delete are
// Admin's and reach past the person record (see buildstore.LockPerson and buildstore.DeletePerson): the
// home projects are locked or removed, a deleted person's tokens dropped. Admin itself cannot
// be locked or deleted, so the instance keeps its administrator.
func (a *api) personCommand(c *fiber.Ctx) error {
	login, who, cmd := pathParam(c, "login"), personOf(c), c.Query("cmd")
	var change func(tx *bbolt.Tx) error
	switch cmd {
	case "change_password":
		password, err := newPassword(c.Body())
		if err != nil {
			return err
		}
		if err := selfOrAdmin(who, login); err != nil {
			return err
		}
		var hashed buildstore.Person // bcrypt runs here, not while the write transaction is held
		if err := hashed.SetPassword(password); err != nil {
			return err
		}
		change = func(tx *bbolt.Tx) error {
			p, err := buildstore.GetPerson(tx, login)
			if err != nil {
				return err
			}
			p.PasswordHash = hashed.PasswordHash
			return buildstore.PutPerson(tx, p)
		}
	case "lock", "delete":
		if err := adminOnly(who, cmd+" persons"); err != nil {
			return err
		}
		if login == buildstore.AdminLogin {
			return buildsvc.Forbidden("no_permission", "the %s person cannot be locked or deleted", buildstore.AdminLogin)
		}
		change = func(tx *bbolt.Tx) error { return buildstore.LockPerson(tx, login) }
		if cmd == "delete" {
			change = func(tx *bbolt.Tx) error { return buildstore.DeletePerson(tx, login) }
		}
	default:
		return buildsvc.BadRequest("unknown_command", "unknown command '%s' for a person (change_password, lock, delete)", cmd)
	}
	if err := a.Store.Write(change); err != nil {
		return err
	}
	return sendOK(c)
}

// newPassword takes the first line of body. Six to 128 characters, and at most 72 bytes:
// bcrypt ignores (Go's refuses) anything longer.
func newPassword(body []byte) (string, error) {
	line, _, _ := strings.Cut(string(body), "\n")
	line = strings.TrimSuffix(line, "\r")
	if n := utf8.RuneCountInString(line); n < 6 || n > 128 || len(line) > 72 || !utf8.ValidString(line) {
		return "", buildsvc.BadRequest("invalid_password", "the new password must be 6 to 128 characters and at most 72 bytes (the first line of the body)")
	}
	return line, nil
}
