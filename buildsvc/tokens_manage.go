package buildsvc

import (
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Tokens of a person: listed, created and deleted by that person or Admin. Signing in with a
// token happens at /trigger only, see RunService.

// TokenRequest is what a token is made with: its operation (Kind, one of
// buildstore.TokenKinds), a description, and optionally the package it is bound to (Project
// and Package together).
type TokenRequest struct {
	Kind, Description, Project, Package string
}

// ownerOf reads the person login after the self-or-Admin check; unknown persons are 404 to
// Admin, and 403 to everyone else (who may not learn more).
func ownerOf(tx kv.Tx, who buildstore.Person, login string) (buildstore.Person, error) {
	if err := SelfOrAdmin(who, login); err != nil {
		return buildstore.Person{}, err
	}
	return buildstore.GetPerson(tx, login)
}

// Tokens lists the tokens of login, for them or Admin.
func (s *Service) Tokens(who buildstore.Person, login string) ([]buildstore.Token, error) {
	var list []buildstore.Token
	err := s.db.View(func(tx kv.Tx) error {
		p, err := ownerOf(tx, who, login)
		if err == nil {
			list, err = buildstore.Tokens(tx, p.Login)
		}
		return err
	})
	return list, err
}

// CreateToken makes a token of login (for them or Admin) and returns it with its secret, which
// exists nowhere else from then on. A bound package must exist (unknown_project,
// unknown_package) and the token's owner — not who, when Admin makes it — must be allowed to
// change it, as the real service's Token::ServicePolicy asks at creation: a token that could
// never trigger anything is refused now rather than failing later inside someone's webhook.
func (s *Service) CreateToken(who buildstore.Person, login string, r TokenRequest) (buildstore.Token, string, error) {
	t := buildstore.Token{Kind: r.Kind, Description: r.Description, Project: r.Project, Package: r.Package, Created: s.clk.Now()}
	if !slices.Contains(buildstore.TokenKinds, t.Kind) {
		return t, "", BadRequest("invalid_token_kind", "unknown token operation '%s' (one of %s)", t.Kind, strings.Join(buildstore.TokenKinds, ", "))
	}
	if (t.Project == "") != (t.Package == "") {
		return t, "", BadRequest("missing_parameter", "a token is bound to a package with both project and package, or to none")
	}
	var secret string
	err := s.db.Write(func(tx kv.Tx) error {
		p, err := ownerOf(tx, who, login)
		if err != nil {
			return err
		}
		if t.Project != "" {
			prj, pkg, err := LookupVisiblePackage(tx, p, t.Project, t.Package)
			if err != nil {
				return err
			}
			if err := MayRunService(tx, p, prj, pkg); err != nil {
				return err
			}
		}
		t.Login = p.Login
		t, secret, err = buildstore.CreateToken(tx, t)
		return err
	})
	return t, secret, err
}

// DeleteToken removes the token id of login, for them or Admin; another person's token id is
// 404 unknown_token.
func (s *Service) DeleteToken(who buildstore.Person, login, id string) error {
	return s.db.Write(func(tx kv.Tx) error {
		p, err := ownerOf(tx, who, login)
		if err != nil {
			return err
		}
		return NotFoundAs(buildstore.DeleteToken(tx, p.Login, id), "unknown_token")
	})
}
