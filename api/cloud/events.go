package cloud

import (
	"time"

	"github.com/pocketforge/pocketforge/store/cloud"
	"go.etcd.io/bbolt"
)

// record writes the event of an action the caller took, in the action's own transaction.
func (a *api) record(tx *bbolt.Tx, cl *caller, action string, entity *cloud.EventEntity, now time.Time) error {
	name := cl.user.Username
	return cloud.RecordEvent(tx, &cloud.Event{
		AccountID: cl.user.AccountID, Action: action, Created: now, Username: &name, Entity: entity,
	})
}
