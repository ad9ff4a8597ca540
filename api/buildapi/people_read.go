package buildapi

import (
	"encoding/xml"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/api/kit"
)

// bindPeople registers persons, their tokens, and groups.
func (a *api) bindPeople(r fiber.Router) {
	r.Post("/person", kit.WithBody, a.registerPerson) // no sign-in: a newcomer registers
	a.get(r, "/person/:login", a.getPerson)
	r.Put("/person/:login", a.authenticated, a.putPerson)
	r.Post("/person/:login", a.authenticated, a.personCommand)
	a.get(r, "/person/:login/token", a.listTokens)
	r.Post("/person/:login/token", a.authenticated, a.createToken)
	r.Delete("/person/:login/token/:id", a.authenticated, a.deleteToken)
	r.Put("/group/:title", a.authenticated, a.putGroup)
	r.Post("/group/:title", a.authenticated, a.groupCommand)
	r.Delete("/group/:title", a.authenticated, a.deleteGroup)
	a.get(r, "/group", a.listGroups)
	a.get(r, "/group/:title", a.getGroup)
}

type personXML struct {
	XMLName     xml.Name `xml:"person"`
	Login       string   `xml:"login"`
	Email       string   `xml:"email"`
	Realname    string   `xml:"realname"`
	State       string   `xml:"state"`
	GlobalRoles []string `xml:"globalrole"`
}

func (a *api) getPerson(c *fiber.Ctx) error {
	p, err := a.Svc.GetPerson(pathParam(c, "login"))
	if err != nil {
		return err
	}
	return sendXML(c, personXML{Login: p.Login, Email: p.Email, Realname: p.Realname, State: p.State, GlobalRoles: p.GlobalRoles})
}

type userRef struct {
	UserID string `xml:"userid,attr"`
}

type groupXML struct {
	XMLName     xml.Name  `xml:"group"`
	Title       string    `xml:"title"`
	Email       string    `xml:"email,omitempty"`
	Maintainers []userRef `xml:"maintainer"`
	People      []userRef `xml:"person>person"`
}

func refs(logins []string) []userRef {
	out := make([]userRef, len(logins))
	for i, l := range logins {
		out[i] = userRef{l}
	}
	return out
}

// listGroups lists every group, or with ?login= the groups of that person.
func (a *api) listGroups(c *fiber.Ctx) error {
	groups, err := a.Svc.ListGroups(c.Query("login"))
	if err != nil {
		return err
	}
	names := make([]string, len(groups))
	for i, g := range groups {
		names[i] = g.Title
	}
	return sendXML(c, newDirectory(names))
}

func (a *api) getGroup(c *fiber.Ctx) error {
	g, err := a.Svc.GetGroup(pathParam(c, "title"))
	if err != nil {
		return err
	}
	return sendXML(c, groupXML{Title: g.Title, Email: g.Email, Maintainers: refs(g.Maintainers), People: refs(g.Members)})
}
