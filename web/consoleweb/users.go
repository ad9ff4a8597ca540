package consoleweb

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/web"
)

// usersView is the users page's data: a page of the account's users and the form that adds one.
type usersView struct {
	top
	Users []userRow
	Pager pager
	Form  cloudstore.NewUser // what the form shows (after a refused attempt, what was sent)
	Error string
	// Deleted names the user just deleted.
	Deleted string
}

// userRow is a user as the list shows them.
type userRow struct{ cloudstore.User }

// Since is when the user was created.
func (u userRow) Since() stamp { return stamp(u.Created) }

// userURL is the console page of the user named username.
func userURL(username string) string { return "/console/users/" + url.PathEscape(username) }

// users is GET /console/users (GET /account/users: unrestricted users only).
func (con *console) users(c *fiber.Ctx, who *cloudsvc.Caller) error {
	return con.usersPage(c, who, http.StatusOK, cloudstore.NewUser{}, "")
}

// usersPage draws the users page with status, the form holding form and problem above it.
func (con *console) usersPage(c *fiber.Ctx, who *cloudsvc.Caller, status int, form cloudstore.NewUser, problem string) error {
	if err := allow(cloudsvc.NeedListUsers, who); err != nil {
		return err
	}
	list, err := con.Cloud.AccountUsers(who.User.AccountID)
	if err != nil {
		return err
	}
	page, p := paginate(c, "/console/users", list)
	v := usersView{top: newTop(who, "users"), Pager: p, Form: form, Error: problem, Deleted: c.Query("deleted")}
	for _, u := range page {
		v.Users = append(v.Users, userRow{u})
	}
	return con.render(c, status, "Users", web.PageOf(usersPage, v))
}

// createUser is POST /console/users: cloudsvc.CreateUser, as POST /account/users does (the new
// user is mailed a password-setup link, to the outbox). A refused input shows the form again
// with the domain's reasons (400); a success opens the new user's page.
func (con *console) createUser(c *fiber.Ctx, who *cloudsvc.Caller) error {
	if err := allow(cloudsvc.NeedCreateUser, who); err != nil {
		return err
	}
	in := cloudstore.NewUser{Username: c.FormValue("username"), Email: c.FormValue("email"), Restricted: c.FormValue("restricted") != ""}
	u, err := con.Cloud.CreateUser(who.User, in, nil)
	if errors.Is(err, store.ErrInvalid) {
		return con.usersPage(c, who, http.StatusBadRequest, in, err.Error())
	}
	if err != nil {
		return err
	}
	return c.Redirect("/console/users/"+url.PathEscape(u.Username)+"?created=1", http.StatusSeeOther)
}

// userView is one user's page: the record and, for a restricted user, their grants.
type userView struct {
	top
	Subject userRow
	// MayDelete shows the delete button (not on one's own page: the domain refuses that).
	MayDelete bool
	// MayEdit makes the grants a form (a restricted user's, for one who may change them); Saved
	// says they were just saved.
	MayEdit, Saved bool
	// Confirm is the delete's confirm step; Error why the delete was refused.
	Confirm bool
	Error   string
	Created bool // just created: say where the password-setup link went
	Global  []globalGrant
	Kinds   []grantKind
}

// globalGrant is one account-wide grant and its value.
type globalGrant struct {
	Name  string
	Value string
}

// grantKind is one entity kind's grants: every entity of the account with the permission the
// user holds on it ("" for none), as GET /account/users/{username}/grants lists them.
type grantKind struct {
	Kind     string
	Entities []grantEntity
}

// grantEntity is one entity and the user's permission on it.
type grantEntity struct {
	cloudstore.Entity
	Permission string
}

// user is GET /console/users/:username (GET /account/users/{username} and its grants).
func (con *console) user(c *fiber.Ctx, who *cloudsvc.Caller) error {
	return con.userPage(c, who, c.Params("username"), http.StatusOK, "")
}

// userPage draws the page of the user named username with status and, when a form on it was
// refused, why.
func (con *console) userPage(c *fiber.Ctx, who *cloudsvc.Caller, username string, status int, refused string) error {
	if err := allow(cloudsvc.NeedGetUser, who); err != nil {
		return err
	}
	u, owned, err := con.Cloud.Grants(who.User.AccountID, username)
	if err != nil {
		return err
	}
	v := userView{top: newTop(who, "users"), Subject: userRow{u}, Created: c.Query("created") != "",
		MayDelete: allow(cloudsvc.NeedDeleteUser, who) == nil && u.Username != who.User.Username,
		MayEdit:   allow(cloudsvc.NeedUpdateGrants, who) == nil && u.Restricted,
		Saved:     c.Query("saved") != "", Error: refused}
	if u.Restricted {
		v.Global = globalGrants(u.Grants)
		for _, kind := range cloudstore.EntityKinds {
			gk := grantKind{Kind: kind}
			for _, e := range owned[kind] {
				gk.Entities = append(gk.Entities, grantEntity{Entity: e, Permission: u.Grants.Permission(kind, e.ID)})
			}
			v.Kinds = append(v.Kinds, gk)
		}
	}
	return con.renderUser(c, status, v)
}

// globalGrants lists a restricted user's global grants with the API's names.
func globalGrants(g *cloudstore.Grants) []globalGrant {
	var gl cloudstore.GlobalGrants
	if g != nil {
		gl = g.Global
	}
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	access := g.AccountAccess()
	if access == "" {
		access = "none"
	}
	return []globalGrant{
		{"account_access", access}, {"add_instances", yes(gl.AddInstances)}, {"add_balancers", yes(gl.AddBalancers)},
		{"add_databases", yes(gl.AddDatabases)}, {"add_domains", yes(gl.AddDomains)}, {"add_monitoring", yes(gl.AddMonitoring)},
		{"add_scripts", yes(gl.AddScripts)}, {"monitoring_subscription", yes(gl.MonitoringSubscription)},
		{"add_images", yes(gl.AddImages)}, {"add_volumes", yes(gl.AddVolumes)}, {"add_firewalls", yes(gl.AddFirewalls)},
		{"cancel_account", yes(gl.CancelAccount)},
	}
}

// deleteUser is POST /console/users/:username/delete: first a page that asks to confirm, then
// (confirm=yes) cloudsvc.DeleteUser, as DELETE /account/users/{username} does, and back to the
// users; a refusal (one's own user, the last unrestricted one) is shown on the user's page.
func (con *console) deleteUser(c *fiber.Ctx, who *cloudsvc.Caller) error {
	if err := allow(cloudsvc.NeedDeleteUser, who); err != nil {
		return err
	}
	u, _, err := con.Cloud.Grants(who.User.AccountID, c.Params("username"))
	if err != nil {
		return err
	}
	v := userView{top: newTop(who, "users"), Subject: userRow{u}}
	if !confirmed(c) {
		v.Confirm = true
		return con.render(c, http.StatusOK, "Delete user "+u.Username, web.PageOf(userPage, v))
	}
	if err := con.Cloud.DeleteUser(who.User, u.Username); errors.Is(err, store.ErrInvalid) {
		v.Error = err.Error()
		return con.render(c, http.StatusBadRequest, "User "+u.Username, web.PageOf(userPage, v))
	} else if err != nil {
		return err
	}
	return c.Redirect("/console/users?deleted="+url.QueryEscape(u.Username), http.StatusSeeOther)
}
