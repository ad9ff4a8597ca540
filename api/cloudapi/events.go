package cloudapi

import (
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"go.etcd.io/bbolt"
)

// record writes the event of an action the caller took, in the action's own transaction.
func (a *api) record(tx *bbolt.Tx, cl *caller, action string, entity *cloudstore.EventEntity, now time.Time) error {
	name := cl.user.Username
	return cloudstore.RecordEvent(tx, &cloudstore.Event{
		AccountID: cl.user.AccountID, Action: action, Created: now, Username: &name, Entity: entity,
	})
}
