package cloud

import (
	"bytes"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// Entity is anything a grant can name: an instance, a domain, a volume…
type Entity struct {
	Kind  string
	ID    uint64
	Label string
}

// Entities are an account's entities by kind, each list in id order.
type Entities map[string][]Entity

func (e Entities) has(kind string, id uint64) bool {
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
func AccountEntities(tx *bbolt.Tx, account uint64) (Entities, error) {
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
}

// CreateInstance stores an instance with the next id and lists it among the account's entities.
func CreateInstance(tx *bbolt.Tx, in *Instance) error {
	id, err := store.NextID(tx, store.CloudInstances)
	if err != nil {
		return err
	}
	in.ID = id
	if err := store.Put(tx, store.CloudInstances, store.Itob(id), in); err != nil {
		return err
	}
	return store.IndexAdd(tx, store.CloudAccountEntities, store.Itob(in.AccountID), entityChild("instance", id))
}
