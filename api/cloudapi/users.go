package cloudapi

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/api/kit"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/outbox"
	"go.etcd.io/bbolt"
)

// bindUsers registers the users and grants endpoints (unrestricted users only).
func (a *api) bindUsers(r *routes) {
	r.add(both, "GET", "/account/users", account(unrestrictedOnly), a.listUsers)
	r.add(both, "POST", "/account/users", account(unrestrictedOnly), a.createUser)
	r.add(both, "GET", "/account/users/:username", account(unrestrictedOnly), a.getUser)
	r.add(both, "PUT", "/account/users/:username", account(unrestrictedOnly), a.updateUser)
	r.add(both, "DELETE", "/account/users/:username", account(unrestrictedOnly), a.deleteUser)
	r.add(both, "GET", "/account/users/:username/grants", account(unrestrictedOnly), a.getGrants)
	r.add(both, "PUT", "/account/users/:username/grants", account(unrestrictedOnly), a.putGrants)
}

// userView is a User as the API shows it.
type userView struct {
	Username            string   `json:"username"`
	Email               string   `json:"email"`
	Restricted          bool     `json:"restricted"`
	SSHKeys             []string `json:"ssh_keys"`
	TFAEnabled          bool     `json:"tfa_enabled"`
	VerifiedPhoneNumber *string  `json:"verified_phone_number"`
}

// noKeys is the ssh_keys of every user: SSH keys are not simulated. Shared, never modified.
var noKeys = []string{}

func viewUser(u cloudstore.User) userView {
	return userView{Username: u.Username, Email: u.Email, Restricted: u.Restricted, SSHKeys: noKeys}
}

// userFields are the User's filterable fields (the reference marks only username).
var userFields = listing.Fields[cloudstore.User]{"username": func(u cloudstore.User) any { return u.Username }}

func (a *api) listUsers(c *fiber.Ctx) error {
	account := callerOf(c).user.AccountID
	users, err := a.accountUsers.Get(account, func(tx *bbolt.Tx) ([]cloudstore.User, error) { return cloudstore.AccountUsers(tx, account) })
	if err != nil {
		return err
	}
	return renderList(c, users, userFields, viewUser)
}

func (a *api) getUser(c *fiber.Ctx) error {
	var u cloudstore.User
	if err := a.Store.View(func(tx *bbolt.Tx) (err error) {
		u, err = cloudstore.AccountUser(tx, callerOf(c).user.AccountID, c.Params("username"))
		return err
	}); err != nil {
		return err
	}
	return c.JSON(viewUser(u))
}

// createUser adds a user and mails them a password-setup link (to the outbox).
func (a *api) createUser(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	b.require("username", "email")
	in := cloudstore.NewUser{}
	if s := b.str("username"); s != nil {
		in.Username = *s
	}
	if s := b.str("email"); s != nil {
		in.Email = *s
	}
	if r := b.boolean("restricted"); r != nil {
		in.Restricted = *r
	}
	cl, now := callerOf(c), a.Clock.Now()
	var u cloudstore.User
	err = a.Store.Write(func(tx *bbolt.Tx) error {
		if u, err = cloudstore.CreateUser(tx, cl.user.AccountID, in, now); b.with(err) != nil {
			return b.with(err)
		}
		setup, err := cloudstore.IssuePasswordSetup(tx, u, now)
		if err != nil {
			return err
		}
		if err := outbox.Send(tx, a.welcomeMail(u, cl.user.Username, setup, now)); err != nil {
			return err
		}
		return a.record(tx, cl, "user_create", userEntity(u), now)
	})
	if err != nil {
		return err
	}
	return c.JSON(viewUser(u))
}

func (a *api) updateUser(c *fiber.Ctx) error {
	b, err := parseBody(c)
	if err != nil {
		return err
	}
	up := cloudstore.UserUpdate{Username: b.str("username"), Email: b.str("email"), Restricted: b.boolean("restricted")}
	if err := b.err(); err != nil {
		return err
	}
	cl, now := callerOf(c), a.Clock.Now()
	name := c.Params("username")
	var u cloudstore.User
	err = a.Store.Write(func(tx *bbolt.Tx) error {
		if u, err = cloudstore.AccountUser(tx, cl.user.AccountID, name); err != nil {
			return err
		}
		if u, err = cloudstore.UpdateUser(tx, u, up); err != nil {
			return err
		}
		return a.record(tx, cl, "user_update", userEntity(u), now)
	})
	if err != nil {
		return err
	}
	return c.JSON(viewUser(u))
}

// deleteUser removes a user, logging them out. A user cannot delete themselves, and an account
// keeps at least one unrestricted user (someone must be able to manage it).
func (a *api) deleteUser(c *fiber.Ctx) error {
	cl, now := callerOf(c), a.Clock.Now()
	name := c.Params("username")
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		u, err := cloudstore.AccountUser(tx, cl.user.AccountID, name)
		if err != nil {
			return err
		}
		if u.Username == cl.user.Username {
			return kit.Errorf(http.StatusBadRequest, "You cannot delete your own user")
		}
		if err := a.keepsAdmin(tx, u); err != nil {
			return err
		}
		if err := cloudstore.DeleteUser(tx, u); err != nil {
			return err
		}
		return a.record(tx, cl, "user_delete", userEntity(u), now)
	})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}

// keepsAdmin refuses to remove the account's last unrestricted user.
func (a *api) keepsAdmin(tx *bbolt.Tx, leaving cloudstore.User) error {
	users, err := cloudstore.AccountUsers(tx, leaving.AccountID)
	if err != nil {
		return err
	}
	for _, u := range users {
		if !u.Restricted && u.Username != leaving.Username {
			return nil
		}
	}
	return kit.Errorf(http.StatusBadRequest, "An account must keep at least one unrestricted user")
}

// userEntity is a user as an event's entity.
func userEntity(u cloudstore.User) *cloudstore.EventEntity {
	return &cloudstore.EventEntity{ID: u.Username, Label: u.Username, Type: "user", URL: "/v4/account/users/" + u.Username}
}

// welcomeMail tells a new user how to set their password and log in.
func (a *api) welcomeMail(u cloudstore.User, by, setup string, now time.Time) *outbox.Mail {
	base := a.ExternalURL()
	return &outbox.Mail{
		Time: now, API: "cloud", From: "no-reply@pocketforge.test", To: []string{u.Email},
		Subject: "Your new cloud user " + u.Username,
		Body: fmt.Sprintf("Hello %s,\n\n%s created a user for you. Choose your password here (the link works for 7 days):\n\n  %s/oauth/password-setup?token=%s\n\nThen log in to apps through %s/oauth/authorize.\n",
			u.Username, by, base, setup, base),
	}
}
