package cloudsvc

import (
	"slices"

	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// grantKinds maps event entity types to grant arrays.
var grantKinds = map[string]string{
	"instance": "instance", "linode": "instance", "database": "database", "domain": "domain", "volume": "volume", "image": "image",
	"balancer": "balancer", "nodebalancer": "balancer", "monitoring": "monitoring", "script": "script",
}

// CanSeeEvent decides which events a user sees. Unrestricted users see all of the account's.
// A restricted user sees: events about an entity they hold a grant on; their own actions and
// events about themselves; and account-wide events (account, billing, OAuth clients,
// transfers, other users) only with the account_access grant.
func CanSeeEvent(u cloudstore.User, e cloudstore.Event) bool {
	if !u.Restricted {
		return true
	}
	if e.Username != nil && *e.Username == u.Username {
		return true
	}
	if e.Entity != nil {
		if kind, ok := grantKinds[e.Entity.Type]; ok {
			id, ok := numericID(e.Entity.ID)
			return ok && u.Grants.Permission(kind, id) != ""
		}
		if e.Entity.Type == "user" && e.Entity.ID == u.Username {
			return true
		}
	}
	return u.Grants.AccountAccess() != "" && !slices.Contains([]string{"token"}, entityType(e))
}

func entityType(e cloudstore.Event) string {
	if e.Entity == nil {
		return ""
	}
	return e.Entity.Type
}

// numericID reads an entity id decoded from JSON (float64) or set in memory (uint64).
func numericID(v any) (uint64, bool) {
	switch x := v.(type) {
	case float64:
		return uint64(x), x >= 0
	case uint64:
		return x, true
	case int:
		return uint64(x), x >= 0
	}
	return 0, false
}
