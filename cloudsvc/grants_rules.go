package cloudsvc

import (
	"fmt"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// SetGrants changes what a grants PUT sent inside the caller's transaction (the fixtures give
// the demo users their grants in theirs; Service.SetGrants adds the event): global flags already
// merged into global (nil = unchanged) and the listed entity permissions; everything else stays.
// Only a restricted user has grants, every permission is read_only or read_write, and every
// entity must be one of the account's, so a grant never points at another account's instance.
func SetGrants(tx kv.Tx, u cloudstore.User, global *cloudstore.GlobalGrants, changes []cloudstore.GrantChange) (cloudstore.User, error) {
	if !u.Restricted {
		return u, fmt.Errorf("user %q is unrestricted and has no grants to set: %w", u.Username, store.ErrInvalid)
	}
	var p store.Problems
	if global != nil && global.AccountAccess != nil && !validPermission(*global.AccountAccess) {
		p.Add("global.account_access", "Must be one of read_only, read_write, null")
	}
	owned, err := cloudstore.AccountEntities(tx, u.AccountID)
	if err != nil {
		return u, err
	}
	for _, c := range changes {
		if c.Permissions != nil && !validPermission(*c.Permissions) {
			p.Add(c.Field+".permissions", "Must be one of read_only, read_write, null")
		}
		if !owned.Has(c.Kind, c.ID) {
			p.Add(c.Field+".id", fmt.Sprintf("No %s with id %d on this account", c.Kind, c.ID))
		}
	}
	if err := p.Err(); err != nil {
		return u, err
	}
	g := u.Grants
	if g == nil {
		g = &cloudstore.Grants{}
	}
	if global != nil {
		g.Global = *global
	}
	for _, c := range changes {
		if g.Entities == nil {
			g.Entities = map[string]map[uint64]string{}
		}
		if g.Entities[c.Kind] == nil {
			g.Entities[c.Kind] = map[uint64]string{}
		}
		if c.Permissions == nil {
			delete(g.Entities[c.Kind], c.ID)
		} else {
			g.Entities[c.Kind][c.ID] = *c.Permissions
		}
	}
	u.Grants = g
	return u, cloudstore.PutUser(tx, u)
}

// validPermission reports whether perm is a grant's permission level.
func validPermission(perm string) bool {
	return perm == cloudstore.ReadOnly || perm == cloudstore.ReadWrite
}
