package buildapi

import (
	"encoding/xml"
	"slices"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"go.etcd.io/bbolt"
)

// Tokens of a person: listed, created and deleted by that person or Admin. Signing in with a
// token (Authorization: Token …) happens at /trigger only, see trigger.go.

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

// ownerOf reads the person of the path after the self-or-Admin check; unknown persons are 404
// to Admin, and 403 to everyone else (who may not learn more).
func ownerOf(tx *bbolt.Tx, c *fiber.Ctx) (buildstore.Person, error) {
	login := pathParam(c, "login")
	if err := buildsvc.SelfOrAdmin(personOf(c), login); err != nil {
		return buildstore.Person{}, err
	}
	return buildstore.GetPerson(tx, login)
}

// listTokens lists a person's tokens. The real list shows each secret; only a hash is kept
// here, so `string` is the secret's first 8 characters, enough to tell tokens apart.
func (a *api) listTokens(c *fiber.Ctx) error {
	var list []buildstore.Token
	err := a.Store.View(func(tx *bbolt.Tx) error {
		p, err := ownerOf(tx, c)
		if err == nil {
			list, err = buildstore.Tokens(tx, p.Login)
		}
		return err
	})
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
// (project= and package= together) and of a kind (operation=, runservice by default). A bound
// package must exist (unknown_project, unknown_package) and the token's owner must be allowed to
// change it, as the real service's Token::ServicePolicy asks at creation: a token that could
// never trigger anything is refused now rather than failing later inside someone's webhook.
func (a *api) createToken(c *fiber.Ctx) error {
	if cmd := c.Query("cmd"); cmd != "create" {
		return buildsvc.BadRequest("unknown_command", "unknown command '%s' for tokens (create)", cmd)
	}
	t := buildstore.Token{Kind: c.Query("operation", "runservice"), Description: c.Query("description"),
		Project: c.Query("project"), Package: c.Query("package"), Created: a.Clock.Now()}
	if !slices.Contains(buildstore.TokenKinds, t.Kind) {
		return buildsvc.BadRequest("invalid_token_kind", "unknown token operation '%s' (one of %s)", t.Kind, strings.Join(buildstore.TokenKinds, ", "))
	}
	if (t.Project == "") != (t.Package == "") {
		return buildsvc.BadRequest("missing_parameter", "a token is bound to a package with both project and package, or to none")
	}
	var secret string
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		p, err := ownerOf(tx, c)
		if err != nil {
			return err
		}
		if t.Project != "" {
			prj, pkg, err := buildsvc.LookupPackage(tx, t.Project, t.Package)
			if err != nil {
				return err
			}
			if err := mayRunService(tx, p, prj, pkg); err != nil {
				return err
			}
		}
		t.Login = p.Login
		t, secret, err = buildstore.CreateToken(tx, t)
		return err
	})
	if err != nil {
		return err
	}
	return sendXML(c, tokenCreated{Code: "ok", Summary: "Ok",
		Data: []tokenData{{"token", secret}, {"id", strconv.FormatUint(t.ID, 10)}}})
}

// deleteToken removes one of the person's tokens.
func (a *api) deleteToken(c *fiber.Ctx) error {
	err := a.Store.Write(func(tx *bbolt.Tx) error {
		p, err := ownerOf(tx, c)
		if err != nil {
			return err
		}
		return buildsvc.NotFoundAs(buildstore.DeleteToken(tx, p.Login, pathParam(c, "id")), "unknown_token")
	})
	if err != nil {
		return err
	}
	return sendOK(c)
}
