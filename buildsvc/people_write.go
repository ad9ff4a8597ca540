package buildsvc

import (
	"slices"
	"strings"

	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Person writes: a person edits their own record and password; Admin edits anyone, sets state
// and global roles, locks, deletes, and creates persons (self-registration follows the
// configuration, see Register).

// PersonStates are the states a person document may set.
var PersonStates = []string{buildstore.StateConfirmed, buildstore.StateUnconfirmed, buildstore.StateLocked, buildstore.StateDeleted}

// PersonDoc is what a <person> document carries. A nil GlobalRoles means the document names
// none, which a person who is not Admin may send (osc round-trips what it read).
type PersonDoc struct {
	Login, Email, Realname, State string
	GlobalRoles                   []string
}

// SelfOrAdmin lets the person themself or Admin through: a person's record, password and
// tokens are theirs to change.
func SelfOrAdmin(who buildstore.Person, login string) error {
	if who.Login == login || who.IsAdmin() {
		return nil
	}
	return Forbidden("no_permission", "no permission to change person '%s': only that person or an administrator may", login)
}

// AdminOnly lets only Admin through; what names the operation in the refusal ("create
// persons", "change the configuration").
func AdminOnly(who buildstore.Person, what string) error {
	if who.IsAdmin() {
		return nil
	}
	return Forbidden("no_permission", "only an administrator may %s", what)
}

// PutPerson updates the person login from d on behalf of who (the person themself or Admin);
// Admin may also create one (without a password: Admin sets it next with ChangePassword).
func (s *Service) PutPerson(who buildstore.Person, login string, d PersonDoc) error {
	if d.Login != login {
		return BadRequest("login_mismatch", "login in xml data ('%s') does not match resource path component ('%s')", d.Login, login)
	}
	if d.Email != "" && !strings.Contains(d.Email, "@") {
		return Invalid("person", "'%s' is not an email address", d.Email)
	}
	if err := SelfOrAdmin(who, login); err != nil {
		return err
	}
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		p, err := buildstore.GetPerson(tx, login)
		if err != nil {
			if err := AdminOnly(who, "create persons"); err != nil {
				return err
			}
			if !buildstore.ValidLogin(login) {
				return BadRequest("invalid_login", "'%s' is not a valid login (2 to 100 letters, digits, _ . + -)", login)
			}
			p = buildstore.Person{Login: login, State: buildstore.StateConfirmed, Created: now}
		}
		if err := applyPersonDoc(&p, d, who.IsAdmin()); err != nil {
			return err
		}
		return buildstore.PutPerson(tx, p)
	})
}

// applyPersonDoc copies the document onto p. State and global roles are Admin's: anyone else
// may send them back unchanged (osc round-trips the whole document) but not change them. The
// Admin person keeps the Admin role, so the instance never loses its administrator.
func applyPersonDoc(p *buildstore.Person, d PersonDoc, admin bool) error {
	p.Email, p.Realname = d.Email, d.Realname
	roles := d.GlobalRoles
	if roles == nil {
		roles = []string{}
	}
	for _, r := range roles {
		if r != buildstore.RoleAdmin {
			return Invalid("person", "unknown global role '%s' (only %s)", r, buildstore.RoleAdmin)
		}
	}
	if d.State != "" && !slices.Contains(PersonStates, d.State) {
		return Invalid("person", "unknown state '%s' (one of %s)", d.State, strings.Join(PersonStates, ", "))
	}
	if !admin {
		if (d.State != "" && d.State != p.State) || (d.GlobalRoles != nil && !slices.Equal(roles, p.GlobalRoles)) {
			return Forbidden("no_permission", "only an administrator may change the state or global roles of a person")
		}
		return nil
	}
	if d.State != "" {
		p.State = d.State
	}
	if p.Login == buildstore.AdminLogin && !slices.Contains(roles, buildstore.RoleAdmin) {
		roles = append(roles, buildstore.RoleAdmin)
	}
	p.GlobalRoles = slices.Compact(roles)
	return nil
}
