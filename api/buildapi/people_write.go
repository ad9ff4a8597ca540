package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
)

// Person writes: the documents and commands of /person; who may change what is buildsvc's
// (buildsvc.PutPerson, ChangePassword, LockPerson, DeletePerson, Register).

// unregisteredPersonXML is the registration document.
type unregisteredPersonXML struct {
	XMLName  xml.Name `xml:"unregisteredperson"`
	Login    string   `xml:"login"`
	Email    string   `xml:"email"`
	Realname string   `xml:"realname"`
	Password string   `xml:"password"`
}

// registerPerson answers POST /person?cmd=register, which needs no sign-in (a newcomer has no
// account yet); the configuration's registration decides (buildsvc.Register).
func (a *api) registerPerson(c *fiber.Ctx) error {
	c.Set("X-Opensuse-APIVersion", APIVersion)
	if c.Query("cmd") != "register" {
		return buildsvc.BadRequest("unknown_command", "POST /person takes cmd=register, not '%s'", c.Query("cmd"))
	}
	var d unregisteredPersonXML
	if err := parseMeta(c.Body(), &d, "person"); err != nil {
		return err
	}
	if err := a.Svc.Register(buildsvc.Registration{Login: d.Login, Email: d.Email, Realname: d.Realname, Password: d.Password}); err != nil {
		return err
	}
	return sendOK(c)
}

// putPerson updates a person from a <person> document; Admin may also create one.
func (a *api) putPerson(c *fiber.Ctx) error {
	var d personXML
	if err := parseMeta(c.Body(), &d, "person"); err != nil {
		return err
	}
	doc := buildsvc.PersonDoc{Login: d.Login, Email: d.Email, Realname: d.Realname, State: d.State, GlobalRoles: d.GlobalRoles}
	if err := a.Svc.PutPerson(personOf(c), pathParam(c, "login"), doc); err != nil {
		return err
	}
	return sendOK(c)
}

// personCommand runs POST /person/<login>?cmd=change_password (the new password is the first
// line of the body) or lock or delete (Admin's).
func (a *api) personCommand(c *fiber.Ctx) error {
	login, who, cmd := pathParam(c, "login"), personOf(c), c.Query("cmd")
	var err error
	switch cmd {
	case "change_password":
		err = a.Svc.ChangePassword(who, login, string(c.Body()))
	case "lock":
		err = a.Svc.LockPerson(who, login)
	case "delete":
		err = a.Svc.DeletePerson(who, login)
	default:
		return buildsvc.BadRequest("unknown_command", "unknown command '%s' for a person (change_password, lock, delete)", cmd)
	}
	if err != nil {
		return err
	}
	return sendOK(c)
}
