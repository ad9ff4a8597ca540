package buildstore

import (
	"regexp"
	"strings"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
	"golang.org/x/crypto/bcrypt"
)

// Person states.
const (
	StateConfirmed = "confirmed"
	// StateUnconfirmed is a person who registered while the configuration's registration is
	// "confirmation": they cannot sign in until Admin sets the state to confirmed.
	StateUnconfirmed = "unconfirmed"
	StateLocked      = "locked"
	StateDeleted     = "deleted"
)

// RoleAdmin is the global role that may do everything.
const RoleAdmin = "Admin"

// AdminLogin is the build service's administrator, whose password is --admin-password.
const AdminLogin = "Admin"

// Person is a build-service user. Logins are case-sensitive, as in the real service.
type Person struct {
	Login        string    `json:"login"`
	Email        string    `json:"email"`
	Realname     string    `json:"realname"`
	State        string    `json:"state"`
	GlobalRoles  []string  `json:"global_roles,omitempty"`
	PasswordHash []byte    `json:"password_hash,omitempty"` // bcrypt
	Created      time.Time `json:"created"`
}

// IsAdmin reports whether the person has the Admin global role.
func (p Person) IsAdmin() bool {
	for _, r := range p.GlobalRoles {
		if r == RoleAdmin {
			return true
		}
	}
	return false
}

// GetPerson returns the person with login.
func GetPerson(tx kv.Tx, login string) (Person, error) {
	p, err := store.Get[Person](tx, store.BuildPersons, []byte(login))
	if err != nil {
		return p, store.NotFoundf("Couldn't find User with login = %s", login)
	}
	return p, nil
}

// PutPerson stores a person. It is the persons bucket's one writer, so it is where the
// persons' version moves (persons_version.go).
func PutPerson(tx kv.Tx, p Person) error {
	if err := store.Put(tx, store.BuildPersons, []byte(p.Login), p); err != nil {
		return err
	}
	personWritten(tx)
	return nil
}

// Persons lists every person, by login.
func Persons(tx kv.Tx) ([]Person, error) {
	var out []Person
	err := store.Each(tx, store.BuildPersons, nil, func(_ []byte, p Person) (bool, error) {
		out = append(out, p)
		return true, nil
	})
	return out, err
}

// PasswordMatches checks a password against the stored bcrypt hash. It is slow on purpose;
// buildsvc remembers a successful check until the persons' version moves.
func (p Person) PasswordMatches(password string) bool {
	return len(p.PasswordHash) > 0 && bcrypt.CompareHashAndPassword(p.PasswordHash, []byte(password)) == nil
}

// Group is a named set of persons, some of them its maintainers.
type Group struct {
	Title       string   `json:"title"`
	Email       string   `json:"email"`
	Maintainers []string `json:"maintainers"`
	Members     []string `json:"members"`
}

// GetGroup returns the group with title.
func GetGroup(tx kv.Tx, title string) (Group, error) {
	g, err := store.Get[Group](tx, store.BuildGroups, []byte(title))
	if err != nil {
		return g, store.NotFoundf("Couldn't find Group '%s'", title)
	}
	return g, nil
}

// PutGroup stores a group.
func PutGroup(tx kv.Tx, g Group) error {
	return store.Put(tx, store.BuildGroups, []byte(g.Title), g)
}

// Groups lists every group, by title; with member set, only the groups that person belongs to.
func Groups(tx kv.Tx, member string) ([]Group, error) {
	var out []Group
	err := store.Each(tx, store.BuildGroups, nil, func(_ []byte, g Group) (bool, error) {
		if member == "" || contains(g.Members, member) || contains(g.Maintainers, member) {
			out = append(out, g)
		}
		return true, nil
	})
	return out, err
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// SetAdminPassword gives the Admin person the appliance's admin password hash (bcrypt, as
// stored by store/appliance), creating Admin when missing, so --admin-password is the Admin
// password whatever data is loaded.
func SetAdminPassword(tx kv.Tx, hash []byte, now time.Time) error {
	p, err := GetPerson(tx, AdminLogin)
	if err != nil {
		p = Person{Login: AdminLogin, Email: "admin@pocketforge.test", Realname: "Build Service Administrator",
			State: StateConfirmed, GlobalRoles: []string{RoleAdmin}, Created: now}
	}
	p.PasswordHash = append([]byte(nil), hash...)
	return PutPerson(tx, p)
}

// SetPassword gives p a new bcrypt hash (the cost store/appliance uses). Remembered credentials
// end when the record is stored (PutPerson moves the persons' version).
func (p *Person) SetPassword(password string) error {
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		return err
	}
	p.PasswordHash = h
	return nil
}

// DeleteGroup removes a group.
func DeleteGroup(tx kv.Tx, title string) error {
	if err := store.Delete(tx, store.BuildGroups, []byte(title)); err != nil {
		return store.NotFoundf("Couldn't find Group '%s'", title)
	}
	return nil
}

// HomeProjects names login's live home projects: home:<login> and every project below it
// (home:<login>:…), in name order. Project keys are names, so this is one cursor walk; the
// ":" keeps home:bobby out of bob's. A key whose record GetProject does not return (a deleted
// project's tombstone) is left out.
func HomeProjects(tx kv.Tx, login string) ([]string, error) {
	b, err := store.Bucket(tx, store.BuildProjects)
	if err != nil {
		return nil, err
	}
	home := "home:" + login
	var names []string
	c := b.Cursor()
	for k, _ := c.Seek([]byte(home)); k != nil && strings.HasPrefix(string(k), home); k, _ = c.Next() {
		if name := string(k); name == home || strings.HasPrefix(name, home+":") {
			names = append(names, name)
		}
	}
	var out []string
	for _, name := range names {
		if _, err := GetProject(tx, name); err == nil {
			out = append(out, name)
		}
	}
	return out, nil
}

// LockPerson locks a person out (no sign-in, no token triggers) and locks every home project,
// as the real service's User#lock! does "to avoid unnecessary builds": a locked project refuses
// every write, so nothing of the person's keeps changing while an administrator looks into it.
// Projects already locked stay as they are; unlocking the person does not unlock them.
func LockPerson(tx kv.Tx, login string) error {
	p, err := GetPerson(tx, login)
	if err != nil {
		return err
	}
	p.State = StateLocked
	if err := PutPerson(tx, p); err != nil {
		return err
	}
	homes, err := HomeProjects(tx, login)
	for _, name := range homes {
		if err != nil {
			break
		}
		var prj Project
		if prj, err = GetProject(tx, name); err == nil && !prj.Locked {
			prj.Locked = true
			err = PutProject(tx, prj)
		}
	}
	return err
}

// DeletePerson marks a person deleted, as the real service's User#delete! does: the record
// stays (so nobody can take over the login and with it the history and repositories that name
// it) but its e-mail and real name are wiped, its tokens dropped, and its home projects
// removed. Children go before their parents, so each project is deleted on its own.
func DeletePerson(tx kv.Tx, login string) error {
	p, err := GetPerson(tx, login)
	if err != nil {
		return err
	}
	p.State, p.Email, p.Realname = StateDeleted, "", ""
	if err := PutPerson(tx, p); err != nil {
		return err
	}
	if err := DeleteTokens(tx, login); err != nil {
		return err
	}
	homes, err := HomeProjects(tx, login)
	for i := len(homes) - 1; i >= 0 && err == nil; i-- {
		err = DeleteProject(tx, homes[i])
	}
	return err
}

// loginPattern is the login rule: what can stand in a home project's name (home:<login>), 2 to
// 100 characters, not starting with a punctuation mark.
var loginPattern = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9_.+-]{1,99}$`)

// ValidLogin applies the login rule.
func ValidLogin(login string) bool { return loginPattern.MatchString(login) }
