package buildapi

import (
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// Group writes: Admin creates and deletes groups; a group's maintainers (or Admin) change it.

// groupInput is what a <group> PUT may carry (groupXML with the person list as input).
type groupInput struct {
	Title       string    `xml:"title"`
	Email       string    `xml:"email"`
	Maintainers []userRef `xml:"maintainer"`
	People      []userRef `xml:"person>person"`
}

// mayChangeGroup: Admin, or a maintainer of g.
func mayChangeGroup(who buildstore.Person, g buildstore.Group) error {
	if who.IsAdmin() || slices.Contains(g.Maintainers, who.Login) {
		return nil
	}
	return buildsvc.Forbidden("group_change_no_permission", "no permission to change group '%s': it needs a maintainer of the group", g.Title)
}

// logins checks that every referenced person exists and returns their logins, once each.
func logins(tx *bbolt.Tx, list []userRef) ([]string, error) {
	out := []string{}
	for _, r := range list {
		if _, err := buildstore.GetPerson(tx, r.UserID); err != nil {
			return nil, buildsvc.Invalid("group", "%v", err)
		}
		if !slices.Contains(out, r.UserID) {
			out = append(out, r.UserID)
		}
	}
	return out, nil
}

// putGroup creates (Admin) or replaces (maintainer or Admin) a group from a <group> document.
func (a *api) putGroup(c *fiber.Ctx) error {
	title, who := pathParam(c, "title"), personOf(c)
	var d groupInput
	if err := parseMeta(c.Body(), &d, "group"); err != nil {
		return err
	}
	if d.Title != title {
		return buildsvc.BadRequest("group_title_mismatch", "group title in xml data ('%s') does not match resource path component ('%s')", d.Title, title)
	}
	if strings.ContainsAny(title, "/ ") || title == "" {
		return buildsvc.BadRequest("invalid_group_name", "invalid group title '%s'", title)
	}
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		old, err := buildstore.GetGroup(tx, title)
		if err != nil {
			err = adminOnly(who, "create groups")
		} else {
			err = mayChangeGroup(who, old)
		}
		if err != nil {
			return err
		}
		g := buildstore.Group{Title: title, Email: d.Email}
		if g.Maintainers, err = logins(tx, d.Maintainers); err != nil {
			return err
		}
		if g.Members, err = logins(tx, d.People); err != nil {
			return err
		}
		return buildstore.PutGroup(tx, g)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// groupCommand runs POST /group/<title>?cmd=add_user|remove_user (userid=) or set_email
// (email=; left out, the email is removed).
func (a *api) groupCommand(c *fiber.Ctx) error {
	cmd, userid := c.Query("cmd"), c.Query("userid")
	switch {
	case cmd != "add_user" && cmd != "remove_user" && cmd != "set_email":
		return buildsvc.BadRequest("unknown_command", "unknown command '%s' for a group (add_user, remove_user, set_email)", cmd)
	case cmd != "set_email" && userid == "":
		return buildsvc.BadRequest("missing_parameter", "%s needs the userid parameter", cmd)
	}
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		g, err := buildstore.GetGroup(tx, pathParam(c, "title"))
		if err != nil {
			return err
		}
		if err := mayChangeGroup(personOf(c), g); err != nil {
			return err
		}
		switch cmd {
		case "set_email":
			g.Email = c.Query("email")
		case "add_user":
			if _, err := buildstore.GetPerson(tx, userid); err != nil {
				return err
			}
			if !slices.Contains(g.Members, userid) {
				g.Members = append(g.Members, userid)
			}
		case "remove_user":
			g.Members = slices.DeleteFunc(g.Members, func(m string) bool { return m == userid })
		}
		return buildstore.PutGroup(tx, g)
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}

// deleteGroup removes a group (Admin). Project and package roles naming it stay, as dangling
// references the role checks skip.
func (a *api) deleteGroup(c *fiber.Ctx) error {
	if err := adminOnly(personOf(c), "delete groups"); err != nil {
		return err
	}
	if err := a.Store.Write(func(tx *bbolt.Tx) error { return buildstore.DeleteGroup(tx, pathParam(c, "title")) }); err != nil {
		return err
	}
	return sendOK(c)
}
