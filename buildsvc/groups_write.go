package buildsvc

import (
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Group writes: Admin creates and deletes groups; a group's maintainers (or Admin) change it.
// Members and maintainers must be existing persons, since the role checks of projects and
// packages read them.

// GroupDoc is what a <group> document carries: the logins of its maintainers and members.
type GroupDoc struct {
	Title, Email         string
	Maintainers, Members []string
}

// GroupCommand is one POST /group/<title> command: add_user or remove_user (UserID), or
// set_email (Email; empty removes it).
type GroupCommand struct {
	Cmd, UserID, Email string
}

// mayChangeGroup: Admin, or a maintainer of g.
func mayChangeGroup(who buildstore.Person, g buildstore.Group) error {
	if who.IsAdmin() || slices.Contains(g.Maintainers, who.Login) {
		return nil
	}
	return Forbidden("group_change_no_permission", "no permission to change group '%s': it needs a maintainer of the group", g.Title)
}

// existingLogins checks that every listed person exists and returns the logins once each.
func existingLogins(tx kv.Tx, list []string) ([]string, error) {
	out := []string{}
	for _, login := range list {
		if _, err := buildstore.GetPerson(tx, login); err != nil {
			return nil, Invalid("group", "%v", err)
		}
		if !slices.Contains(out, login) {
			out = append(out, login)
		}
	}
	return out, nil
}

// PutGroup creates (Admin) or replaces (a maintainer of it, or Admin) the group title from d.
func (s *Service) PutGroup(who buildstore.Person, title string, d GroupDoc) error {
	if err := checkGroupTitle(title, d); err != nil {
		return err
	}
	return s.db.Write(func(tx kv.Tx) error { return PutGroupTx(tx, who, title, d) })
}

// PutGroupTx is PutGroup inside the caller's transaction (the fixtures create the demo group
// in theirs).
func PutGroupTx(tx kv.Tx, who buildstore.Person, title string, d GroupDoc) error {
	if err := checkGroupTitle(title, d); err != nil {
		return err
	}
	old, err := buildstore.GetGroup(tx, title)
	if err != nil {
		err = AdminOnly(who, "create groups")
	} else {
		err = mayChangeGroup(who, old)
	}
	if err != nil {
		return err
	}
	g := buildstore.Group{Title: title, Email: d.Email}
	if g.Maintainers, err = existingLogins(tx, d.Maintainers); err != nil {
		return err
	}
	if g.Members, err = existingLogins(tx, d.Members); err != nil {
		return err
	}
	return buildstore.PutGroup(tx, g)
}

// checkGroupTitle: the document names the URL's group, and the title is one a URL can hold.
func checkGroupTitle(title string, d GroupDoc) error {
	if d.Title != title {
		return BadRequest("group_title_mismatch", "group title in xml data ('%s') does not match resource path component ('%s')", d.Title, title)
	}
	if strings.ContainsAny(title, "/ ") || title == "" {
		return BadRequest("invalid_group_name", "invalid group title '%s'", title)
	}
	return nil
}

// ChangeGroup runs a command on the group title for one of its maintainers (or Admin).
func (s *Service) ChangeGroup(who buildstore.Person, title string, cmd GroupCommand) error {
	switch {
	case cmd.Cmd != "add_user" && cmd.Cmd != "remove_user" && cmd.Cmd != "set_email":
		return BadRequest("unknown_command", "unknown command '%s' for a group (add_user, remove_user, set_email)", cmd.Cmd)
	case cmd.Cmd != "set_email" && cmd.UserID == "":
		return BadRequest("missing_parameter", "%s needs the userid parameter", cmd.Cmd)
	}
	return s.db.Write(func(tx kv.Tx) error {
		g, err := buildstore.GetGroup(tx, title)
		if err != nil {
			return err
		}
		if err := mayChangeGroup(who, g); err != nil {
			return err
		}
		switch cmd.Cmd {
		case "set_email":
			g.Email = cmd.Email
		case "add_user":
			if _, err := buildstore.GetPerson(tx, cmd.UserID); err != nil {
				return err
			}
			if !slices.Contains(g.Members, cmd.UserID) {
				g.Members = append(g.Members, cmd.UserID)
			}
		case "remove_user":
			g.Members = slices.DeleteFunc(g.Members, func(m string) bool { return m == cmd.UserID })
		}
		return buildstore.PutGroup(tx, g)
	})
}

// DeleteGroup removes a group (Admin). Project and package roles naming it stay, as dangling
// references the role checks skip.
func (s *Service) DeleteGroup(who buildstore.Person, title string) error {
	if err := AdminOnly(who, "delete groups"); err != nil {
		return err
	}
	return s.db.Write(func(tx kv.Tx) error { return buildstore.DeleteGroup(tx, title) })
}
