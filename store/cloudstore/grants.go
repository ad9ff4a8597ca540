package cloudstore

import (
	"fmt"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// Permission levels of grants and scopes.
const (
	ReadOnly  = "read_only"
	ReadWrite = "read_write"
)

// GlobalGrants are a restricted user's account-wide permissions, with the seed's names.
type GlobalGrants struct {
	AccountAccess          *string `json:"account_access"` // read_only, read_write or null
	AddInstances           bool    `json:"add_instances"`
	AddBalancers           bool    `json:"add_balancers"`
	AddDatabases           bool    `json:"add_databases"`
	AddDomains             bool    `json:"add_domains"`
	AddMonitoring          bool    `json:"add_monitoring"`
	AddScripts             bool    `json:"add_scripts"`
	MonitoringSubscription bool    `json:"monitoring_subscription"`
	AddImages              bool    `json:"add_images"`
	AddVolumes             bool    `json:"add_volumes"`
	AddFirewalls           bool    `json:"add_firewalls"`
	CancelAccount          bool    `json:"cancel_account"`
}

// EntityKinds are the seed's grant arrays, in the order they are rendered.
var EntityKinds = []string{"domain", "image", "instance", "monitoring", "balancer", "script", "volume"}

// Grants are what a restricted user may do: the global flags and, per entity kind, the
// permission held on each entity (absent = no access).
type Grants struct {
	Global   GlobalGrants                 `json:"global"`
	Entities map[string]map[uint64]string `json:"entities,omitempty"`
}

// Permission returns the user's permission on an entity ("" = none).
func (g *Grants) Permission(kind string, id uint64) string {
	if g == nil {
		return ""
	}
	return g.Entities[kind][id]
}

// AccountAccess returns the account_access grant ("" = none).
func (g *Grants) AccountAccess() string {
	if g == nil || g.Global.AccountAccess == nil {
		return ""
	}
	return *g.Global.AccountAccess
}

// GrantChange is an entity permission a PUT sets; a nil Permissions removes access.
type GrantChange struct {
	Kind        string
	ID          uint64
	Permissions *string
	Field       string // where it came from in the request, for error messages ("instance[0]")
}

// SetGrants changes what a grants PUT sent: global flags already merged by the caller into
// global (nil = unchanged) and the listed entity permissions; everything else stays. Every entity
// must be one of the account's.
func SetGrants(tx *bbolt.Tx, u User, global *GlobalGrants, changes []GrantChange) (User, error) {
	if !u.Restricted {
		return u, fmt.Errorf("user %q is unrestricted and has no grants to set: %w", u.Username, store.ErrInvalid)
	}
	var p store.Problems
	if global != nil && global.AccountAccess != nil && *global.AccountAccess != ReadOnly && *global.AccountAccess != ReadWrite {
		p.Add("global.account_access", "Must be one of read_only, read_write, null")
	}
	owned, err := AccountEntities(tx, u.AccountID)
	if err != nil {
		return u, err
	}
	for _, c := range changes {
		if c.Permissions != nil && *c.Permissions != ReadOnly && *c.Permissions != ReadWrite {
			p.Add(c.Field+".permissions", "Must be one of read_only, read_write, null")
		}
		if !owned.has(c.Kind, c.ID) {
			p.Add(c.Field+".id", fmt.Sprintf("No %s with id %d on this account", c.Kind, c.ID))
		}
	}
	if err := p.Err(); err != nil {
		return u, err
	}
	g := u.Grants
	if g == nil {
		g = &Grants{}
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
	return u, PutUser(tx, u)
}
