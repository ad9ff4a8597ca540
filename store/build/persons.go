// Package build keeps the build service's records — persons, groups, project and package metas (sources,
// revisions and requests follow) — and the rules that guard them. Key layouts live
// next to each record's accessors; every function takes the transaction it works in.
package build

import (
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
	"golang.org/x/crypto/bcrypt"
)

// Person states.
const (
	StateConfirmed = "confirmed"
	StateLocked    = "locked"
	StateDeleted   = "deleted"
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
func GetPerson(tx *bbolt.Tx, login string) (Person, error) {
	p, err := store.Get[Person](tx, store.BuildPersons, []byte(login))
	if err != nil {
		return p, store.NotFoundf("Couldn't find User with login = %s", login)
	}
	return p, nil
}

// PutPerson stores a person.
func PutPerson(tx *bbolt.Tx, p Person) error {
	return store.Put(tx, store.BuildPersons, []byte(p.Login), p)
}

// Persons lists every person, by login.
func Persons(tx *bbolt.Tx) ([]Person, error) {
	var out []Person
	err := store.Each(tx, store.BuildPersons, nil, func(_ []byte, p Person) (bool, error) {
		out = append(out, p)
		return true, nil
	})
	return out, err
}

// PasswordMatches checks a password against the stored bcrypt hash. It is slow on purpose;
// callers cache a successful check (see api/build's credential cache).
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
func GetGroup(tx *bbolt.Tx, title string) (Group, error) {
	g, err := store.Get[Group](tx, store.BuildGroups, []byte(title))
	if err != nil {
		return g, store.NotFoundf("Couldn't find Group '%s'", title)
	}
	return g, nil
}

// PutGroup stores a group.
func PutGroup(tx *bbolt.Tx, g Group) error {
	return store.Put(tx, store.BuildGroups, []byte(g.Title), g)
}

// Groups lists every group, by title; with member set, only the groups that person belongs to.
func Groups(tx *bbolt.Tx, member string) ([]Group, error) {
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
func SetAdminPassword(tx *bbolt.Tx, hash []byte, now time.Time) error {
	p, err := GetPerson(tx, AdminLogin)
	if err != nil {
		p = Person{Login: AdminLogin, Email: "admin@pocketforge.test", Realname: "Build Service Administrator",
			State: StateConfirmed, GlobalRoles: []string{RoleAdmin}, Created: now}
	}
	p.PasswordHash = append([]byte(nil), hash...)
	return PutPerson(tx, p)
}

// SetPassword gives p a new bcrypt hash (the cost store/appliance uses). Signed-in credentials
// end by themselves: api/build's credential cache is keyed by the hash it matched.
func (p *Person) SetPassword(password string) error {
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	if err != nil {
		return err
	}
	p.PasswordHash = h
	return nil
}

// DeleteGroup removes a group.
func DeleteGroup(tx *bbolt.Tx, title string) error {
	if err := store.Delete(tx, store.BuildGroups, []byte(title)); err != nil {
		return store.NotFoundf("Couldn't find Group '%s'", title)
	}
	return nil
}
