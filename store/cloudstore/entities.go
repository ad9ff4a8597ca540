package cloudstore

import (
	"bytes"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Entity is anything a grant can name: an instance, a domain, a volume…
type Entity struct {
	Kind  string
	ID    uint64
	Label string
}

// Entities are an account's entities by kind, each list in id order.
type Entities map[string][]Entity

// Has reports whether the account owns the entity kind/id.
func (e Entities) Has(kind string, id uint64) bool {
	for _, x := range e[kind] {
		if x.ID == id {
			return true
		}
	}
	return false
}

// entityChild is the CloudAccountEntities child key of an entity: kind, 0, big-endian id.
func entityChild(kind string, id uint64) []byte {
	return append(append([]byte(kind), 0), store.Itob(id)...)
}

// AccountEntities lists every grantable entity of the account.
func AccountEntities(tx kv.Tx, account uint64) (Entities, error) {
	kids, err := store.IndexChildren(tx, store.CloudAccountEntities, store.Itob(account))
	if err != nil {
		return nil, err
	}
	out := Entities{}
	for _, k := range kids {
		kind, id, ok := bytes.Cut(k, []byte{0})
		if !ok {
			continue
		}
		e := Entity{Kind: string(kind), ID: store.Btoi(id)}
		if e.Kind == "instance" {
			inst, err := store.Get[Instance](tx, store.CloudInstances, id)
			if err != nil {
				return nil, err
			}
			e.Label = inst.Label
		}
		out[e.Kind] = append(out[e.Kind], e)
	}
	return out, nil
}

// Instance is a compute instance: the cloud's main product, present here as fixtures so that
// grants, billing and transfers have something real to act on.
type Instance struct {
	ID        uint64    `json:"id"`
	AccountID uint64    `json:"account_id"`
	Label     string    `json:"label"`
	Region    string    `json:"region"`
	Type      string    `json:"type"`
	Status    string    `json:"status"`
	Created   time.Time `json:"created"`

	// HourlyPrice and MonthlyPrice (US dollars) bill the instance: hours × hourly, capped at the
	// monthly price per calendar month.
	HourlyPrice  float64 `json:"hourly_price"`
	MonthlyPrice float64 `json:"monthly_price"`
	// TransferQuotaGB adds to the account's monthly network pool; TransferGBPerDay is the
	// simulated outbound traffic the instance accrues, by the clock.
	TransferQuotaGB  int     `json:"transfer_quota_gb"`
	TransferGBPerDay float64 `json:"transfer_gb_per_day"`
	BackupsEnabled   bool    `json:"backups_enabled"`
	// Attached lists what ties the instance to its account (service-transfer rules 5–8).
	Attached Attachments `json:"attached"`
	// Owners is the billing history: which account owned it when (a transfer adds an entry).
	Owners []Ownership `json:"owners"`
	// Maintenance lists scheduled maintenance of the instance's host.
	Maintenance []Maintenance `json:"maintenance,omitempty"`
}

// Attachments are what a service transfer must not carry along.
type Attachments struct {
	Balancer   bool     `json:"balancer,omitempty"`
	Firewall   bool     `json:"firewall,omitempty"`
	VLAN       bool     `json:"vlan,omitempty"`
	Managed    bool     `json:"managed,omitempty"`
	Volumes    int      `json:"volumes,omitempty"`
	SharedIPs  int      `json:"shared_ips,omitempty"`
	IPv6Ranges []string `json:"ipv6_ranges,omitempty"` // e.g. "2600:3c00:e000:100::/56"
}

// Ownership is one stretch of an instance's billing history; To is nil while it lasts.
type Ownership struct {
	AccountID uint64     `json:"account_id"`
	From      time.Time  `json:"from"`
	To        *time.Time `json:"to,omitempty"`
}

// Maintenance is a scheduled maintenance item of an instance (shown under /v4beta).
type Maintenance struct {
	Type   string    `json:"type"`   // reboot, cold_migration, live_migration
	Status string    `json:"status"` // pending, started
	Reason string    `json:"reason"`
	When   time.Time `json:"when"`
}

// GetInstance returns an instance by id.
func GetInstance(tx kv.Tx, id uint64) (Instance, error) {
	return store.Get[Instance](tx, store.CloudInstances, store.Itob(id))
}

// PutInstance stores a changed instance.
func PutInstance(tx kv.Tx, in Instance) error {
	return store.Put(tx, store.CloudInstances, store.Itob(in.ID), in)
}

// Instances lists every instance, in id order: billing walks them all, since an account is billed
// for instances it owned in a period and may have transferred away since.
func Instances(tx kv.Tx) ([]Instance, error) {
	var out []Instance
	err := store.Each(tx, store.CloudInstances, nil, func(_ []byte, in Instance) (bool, error) {
		out = append(out, in)
		return true, nil
	})
	return out, err
}

// AccountInstances lists the instances an account owns now, in id order.
func AccountInstances(tx kv.Tx, account uint64) ([]Instance, error) {
	owned, err := AccountEntities(tx, account)
	if err != nil {
		return nil, err
	}
	out := make([]Instance, 0, len(owned["instance"]))
	for _, e := range owned["instance"] {
		in, err := GetInstance(tx, e.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	return out, nil
}

// MoveInstance hands an instance to another account at now: ownership, the grantable-entity
// index and the billing history move together (its backups are part of the instance).
func MoveInstance(tx kv.Tx, in Instance, to uint64, now time.Time) (Instance, error) {
	from := in.AccountID
	if err := store.IndexRemove(tx, store.CloudAccountEntities, store.Itob(from), entityChild("instance", in.ID)); err != nil {
		return in, err
	}
	if err := store.IndexAdd(tx, store.CloudAccountEntities, store.Itob(to), entityChild("instance", in.ID)); err != nil {
		return in, err
	}
	if n := len(in.Owners); n > 0 && in.Owners[n-1].To == nil {
		in.Owners[n-1].To = &now
	}
	in.Owners = append(in.Owners, Ownership{AccountID: to, From: now})
	in.AccountID = to
	return in, PutInstance(tx, in)
}

// CreateInstance stores an instance with the next id and lists it among the account's entities.
func CreateInstance(tx kv.Tx, in *Instance) error {
	id, err := store.NextID(tx, store.CloudInstances)
	if err != nil {
		return err
	}
	in.ID = id
	if len(in.Owners) == 0 {
		in.Owners = []Ownership{{AccountID: in.AccountID, From: in.Created}}
	}
	if err := store.Put(tx, store.CloudInstances, store.Itob(id), in); err != nil {
		return err
	}
	return store.IndexAdd(tx, store.CloudAccountEntities, store.Itob(in.AccountID), entityChild("instance", id))
}
