package cloudstore

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

// GrantChange is an entity permission a grants PUT sets (the input of cloudsvc.SetGrants); a nil
// Permissions removes access.
type GrantChange struct {
	Kind        string
	ID          uint64
	Permissions *string
	Field       string // where it came from in the request, for error messages ("instance[0]")
}
