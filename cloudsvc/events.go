package cloudsvc

import (
	"time"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"go.etcd.io/bbolt"
)

// record writes the event of an action user by took, in the action's own transaction, so an
// action and its event commit together or not at all.
func record(tx *bbolt.Tx, by cloudstore.User, action string, entity *cloudstore.EventEntity, now time.Time) error {
	name := by.Username
	return cloudstore.RecordEvent(tx, &cloudstore.Event{
		AccountID: by.AccountID, Action: action, Created: now, Username: &name, Entity: entity,
	})
}
