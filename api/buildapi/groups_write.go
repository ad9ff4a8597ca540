package buildapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
)

// Group writes: the <group> document and the /group commands; who may change a group is
// buildsvc's (PutGroup, ChangeGroup, DeleteGroup).

// groupInput is what a <group> PUT may carry (groupXML with the person list as input).
type groupInput struct {
	Title       string    `xml:"title"`
	Email       string    `xml:"email"`
	Maintainers []userRef `xml:"maintainer"`
	People      []userRef `xml:"person>person"`
}

// userIDs are the logins of refs.
func userIDs(list []userRef) []string {
	out := make([]string, len(list))
	for i, r := range list {
		out[i] = r.UserID
	}
	return out
}

// putGroup creates (Admin) or replaces (maintainer or Admin) a group from a <group> document.
func (a *api) putGroup(c *fiber.Ctx) error {
	var d groupInput
	if err := parseMeta(c.Body(), &d, "group"); err != nil {
		return err
	}
	doc := buildsvc.GroupDoc{Title: d.Title, Email: d.Email, Maintainers: userIDs(d.Maintainers), Members: userIDs(d.People)}
	if err := a.Svc.PutGroup(personOf(c), pathParam(c, "title"), doc); err != nil {
		return err
	}
	return sendOK(c)
}

// groupCommand runs POST /group/<title>?cmd=add_user|remove_user (userid=) or set_email
// (email=; left out, the email is removed).
func (a *api) groupCommand(c *fiber.Ctx) error {
	cmd := buildsvc.GroupCommand{Cmd: c.Query("cmd"), UserID: c.Query("userid"), Email: c.Query("email")}
	if err := a.Svc.ChangeGroup(personOf(c), pathParam(c, "title"), cmd); err != nil {
		return err
	}
	return sendOK(c)
}

// deleteGroup removes a group (Admin).
func (a *api) deleteGroup(c *fiber.Ctx) error {
	if err := a.Svc.DeleteGroup(personOf(c), pathParam(c, "title")); err != nil {
		return err
	}
	return sendOK(c)
}
