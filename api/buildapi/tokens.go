package buildapi

import (
	"encoding/xml"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
)

// Tokens of a person: the documents of /person/<login>/token. Who may list, create and delete
// them is buildsvc's (Tokens, CreateToken, DeleteToken). Signing in with a token
// (Authorization: Token …) happens at /trigger only, see trigger.go.

type tokenEntry struct {
	ID          uint64 `xml:"id,attr"`
	String      string `xml:"string,attr"`
	Kind        string `xml:"kind,attr"`
	Description string `xml:"description,attr,omitempty"`
	Project     string `xml:"project,attr,omitempty"`
	Package     string `xml:"package,attr,omitempty"`
	TriggeredAt string `xml:"triggered_at,attr,omitempty"`
}

// triggeredAtLayout is how the real list renders triggered_at (a Rails UTC time's to_s).
const triggeredAtLayout = "2006-01-02 15:04:05 UTC"

type tokenList struct {
	XMLName xml.Name     `xml:"directory"`
	Count   int          `xml:"count,attr"`
	Entries []tokenEntry `xml:"entry"`
}

// tokenCreated is the create answer: the secret, shown this once, and the id (2.7 lacks the
// id; later versions add it, and osc prints the document whole either way).
type tokenCreated struct {
	XMLName xml.Name    `xml:"status"`
	Code    string      `xml:"code,attr"`
	Summary string      `xml:"summary"`
	Data    []tokenData `xml:"data"`
}

type tokenData struct {
	Name  string `xml:"name,attr"`
	Value string `xml:",chardata"`
}

// listTokens lists a person's tokens. The real list shows each secret; only a hash is kept
// here, so `string` is the secret's first 8 characters, enough to tell tokens apart.
func (a *api) listTokens(c *fiber.Ctx) error {
	list, err := a.Svc.Tokens(personOf(c), pathParam(c, "login"))
	if err != nil {
		return err
	}
	doc := tokenList{Count: len(list), Entries: make([]tokenEntry, len(list))}
	for i, t := range list {
		doc.Entries[i] = tokenEntry{ID: t.ID, String: t.Prefix, Kind: t.Kind, Description: t.Description, Project: t.Project, Package: t.Package}
		if t.TriggeredAt != nil {
			doc.Entries[i].TriggeredAt = t.TriggeredAt.UTC().Format(triggeredAtLayout)
		}
	}
	return sendXML(c, doc)
}

// createToken makes a token (cmd=create), optionally bound to an existing package
// (project= and package= together) and of a kind (operation=, runservice by default); the
// rules are buildsvc.CreateToken's.
func (a *api) createToken(c *fiber.Ctx) error {
	if cmd := c.Query("cmd"); cmd != "create" {
		return buildsvc.BadRequest("unknown_command", "unknown command '%s' for tokens (create)", cmd)
	}
	r := buildsvc.TokenRequest{Kind: c.Query("operation", "runservice"), Description: c.Query("description"),
		Project: c.Query("project"), Package: c.Query("package")}
	t, secret, err := a.Svc.CreateToken(personOf(c), pathParam(c, "login"), r)
	if err != nil {
		return err
	}
	return sendXML(c, tokenCreated{Code: "ok", Summary: "Ok",
		Data: []tokenData{{"token", secret}, {"id", strconv.FormatUint(t.ID, 10)}}})
}

// deleteToken removes one of the person's tokens.
func (a *api) deleteToken(c *fiber.Ctx) error {
	if err := a.Svc.DeleteToken(personOf(c), pathParam(c, "login"), pathParam(c, "id")); err != nil {
		return err
	}
	return sendOK(c)
}
