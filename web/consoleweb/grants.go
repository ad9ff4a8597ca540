package consoleweb

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/web"
)

// Editing a restricted user's grants from the console (POST /console/users/:username/grants),
// through cloudsvc.SetGrants as PUT /account/users/{username}/grants does, behind the console's
// CSRF check. The form sends every global flag (g:<name>: yes or no; g:account_access: none,
// read_only or read_write) and every entity's permission (perm:<kind>:<id>: none, read_only or
// read_write), as the user's page shows them.

// grantsForm reads the form: the global flags it sent and the entity permissions.
func grantsForm(c *fiber.Ctx) (cloudsvc.GlobalChange, []cloudstore.GrantChange, store.Problems) {
	global := cloudsvc.GlobalChange{}
	var changes []cloudstore.GrantChange
	var problems store.Problems
	c.Request().PostArgs().VisitAll(func(k, v []byte) {
		key, val := string(k), string(v)
		switch {
		case key == "g:account_access":
			switch val {
			case "none":
				global["account_access"] = json.RawMessage("null")
			case cloudstore.ReadOnly, cloudstore.ReadWrite:
				global["account_access"], _ = json.Marshal(val)
			default:
				problems = append(problems, store.Problem{Field: "account_access", Reason: "Must be none, read_only or read_write"})
			}
		case strings.HasPrefix(key, "g:"):
			name := strings.TrimPrefix(key, "g:")
			if !cloudsvc.IsGlobalGrant(name) || val != "yes" && val != "no" {
				problems = append(problems, store.Problem{Field: name, Reason: "Must be a global grant, yes or no"})
				return
			}
			global[name] = json.RawMessage(strconv.FormatBool(val == "yes"))
		case strings.HasPrefix(key, "perm:"):
			kind, rawID, _ := strings.Cut(strings.TrimPrefix(key, "perm:"), ":")
			id, err := strconv.ParseUint(rawID, 10, 64)
			if err != nil {
				problems = append(problems, store.Problem{Field: kind, Reason: "Must name an entity by its id"})
				return
			}
			ch := cloudstore.GrantChange{Kind: kind, ID: id, Field: kind + "/" + rawID}
			if val != "none" {
				ch.Permissions = &val
			}
			changes = append(changes, ch)
		}
	})
	return global, changes, problems
}

// saveGrants is POST /console/users/:username/grants; a refusal is the page again with the
// domain's reasons (400), a success the page with a note.
func (con *console) saveGrants(c *fiber.Ctx, who *cloudsvc.Caller) error {
	if err := allow(cloudsvc.NeedUpdateGrants, who); err != nil {
		return err
	}
	username := c.Params("username")
	global, changes, parsed := grantsForm(c)
	_, _, err := con.Cloud.SetGrants(who.User, username, global, changes, parsed)
	if errors.Is(err, store.ErrInvalid) {
		return con.userPage(c, who, username, http.StatusBadRequest, err.Error())
	}
	if err != nil {
		return err
	}
	return c.Redirect(userURL(username)+"?saved=1", http.StatusSeeOther)
}

// permissions are the choices of an entity's permission select.
var permissions = []string{"none", cloudstore.ReadOnly, cloudstore.ReadWrite}

// renderUser writes the user page v with status.
func (con *console) renderUser(c *fiber.Ctx, status int, v userView) error {
	return con.render(c, status, "User "+v.Subject.Username, web.PageOf(userPage, v))
}

// Choices are the values a global grant's select offers.
func (g globalGrant) Choices() []string {
	if g.Name == "account_access" {
		return permissions
	}
	return []string{"yes", "no"}
}

// shown is the permission as the select names it ("none" for none).
func (e grantEntity) shown() string {
	if e.Permission == "" {
		return "none"
	}
	return e.Permission
}
