package cloudstore

import (
	"github.com/pocketforge/pocketforge/store/kv"
)

// The seed's Grants shape has no database array, yet it says restricted users act only on the
// entities they hold grants for. Database grants therefore live where instance grants do
// (Grants.Entities["database"]) but are not part of the grants API: a restricted user gets
// read_write on each database they create (as the real service does for any entity a
// restricted user creates), and the demo fixtures give some. When the shape gains a `database`
// array (the real API added one later), they are already in place.

// DatabaseGrantKind is the key of database grants in Grants.Entities.
const DatabaseGrantKind = "database"

// GrantDatabase gives a restricted user a permission on a database (cloudsvc gives a restricted
// creator read_write; the fixtures give some). An unrestricted user is left as they are.
func GrantDatabase(tx kv.Tx, u User, id uint64, perm string) error {
	return grantDatabase(tx, u, id, perm)
}

// grantDatabase reads the user afresh, so that a grant given in the same transaction as other
// changes to the user (or after them) loses none of them.
func grantDatabase(tx kv.Tx, who User, id uint64, perm string) error {
	u, err := GetUser(tx, who.Username)
	if err != nil || !u.Restricted {
		return err
	}
	if u.Grants == nil {
		u.Grants = &Grants{}
	}
	if u.Grants.Entities == nil {
		u.Grants.Entities = map[string]map[uint64]string{}
	}
	if u.Grants.Entities[DatabaseGrantKind] == nil {
		u.Grants.Entities[DatabaseGrantKind] = map[uint64]string{}
	}
	u.Grants.Entities[DatabaseGrantKind][id] = perm
	return PutUser(tx, u)
}

// revokeDatabaseGrants removes every grant on a deleted database.
func revokeDatabaseGrants(tx kv.Tx, d Database) error {
	users, err := AccountUsers(tx, d.AccountID)
	if err != nil {
		return err
	}
	for _, u := range users {
		if u.Grants.Permission(DatabaseGrantKind, d.ID) == "" {
			continue
		}
		delete(u.Grants.Entities[DatabaseGrantKind], d.ID)
		if err := PutUser(tx, u); err != nil {
			return err
		}
	}
	return nil
}
