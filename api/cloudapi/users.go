package cloudapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/cloudapi/listing"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// bindUsers registers the users and grants endpoints (unrestricted users only).
func (a *api) bindUsers(r *routes) {
	r.add(both, "GET", "/account/users", accessOf(cloudsvc.NeedListUsers), a.listUsers)
	r.add(both, "POST", "/account/users", accessOf(cloudsvc.NeedCreateUser), a.createUser)
	r.add(both, "GET", "/account/users/:username", accessOf(cloudsvc.NeedGetUser), a.getUser)
	r.add(both, "PUT", "/account/users/:username", account(unrestrictedOnly), a.updateUser)
	r.add(both, "DELETE", "/account/users/:username", accessOf(cloudsvc.NeedDeleteUser), a.deleteUser)
	r.add(both, "GET", "/account/users/:username/grants", accessOf(cloudsvc.NeedGetUser), a.getGrants)
	r.add(both, "PUT", "/account/users/:username/grants", accessOf(cloudsvc.NeedUpdateGrants), a.putGrants)
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
	users, err := a.Cloud.AccountUsers(callerOf(c).User.AccountID)
	if err != nil {
		return err
	}
	return renderKept(c, &a.userPages, callerOf(c).User.AccountID, users, userFields, viewUser)
}

func (a *api) getUser(c *fiber.Ctx) error {
	u, err := a.Cloud.AccountUser(callerOf(c).User.AccountID, c.Params("username"))
	if err != nil {
		return err
	}
	return c.JSON(viewUser(u))
}

// createUser adds a user, who is mailed a password-setup link (to the outbox).
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
	u, err := a.Cloud.CreateUser(callerOf(c).User, in, b.problems)
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
	u, err := a.Cloud.UpdateUser(callerOf(c).User, c.Params("username"), up)
	if err != nil {
		return err
	}
	return c.JSON(viewUser(u))
}

// deleteUser removes a user (see cloudsvc.DeleteUser for who may be removed).
func (a *api) deleteUser(c *fiber.Ctx) error {
	if err := a.Cloud.DeleteUser(callerOf(c).User, c.Params("username")); err != nil {
		return err
	}
	return c.JSON(fiber.Map{})
}
