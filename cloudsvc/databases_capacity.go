package cloudsvc

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Capacity. --sqldb-max-instances caps how many connectable instances listen at once and
// --sqldb-max-memory the data they hold (shared equally among the places). The real service
// answers a shortage by refusing the request that needs the room; the reference notes name no
// status or code for it, so the appliance refuses with 400 and one reason that names the limit
// and the flag that sets it — the cloud's usual {"errors":[{"reason":…}]}. A create and a
// resume are refused before anything changes when every place is held (by an instance that
// listens, or provisions and will); an instance that becomes active while the places are held
// anyway (the limit was lowered, or the memory share ran out) stays a record that does not
// listen: its view keeps the simulated host and port, and the reconciler starts it as soon as
// a place frees.

// checkCapacity refuses a new or resumed connectable instance when the places are all held by
// other instances (except is the one being resumed).
func (s *Service) checkCapacity(tx kv.Tx, except uint64, now time.Time) error {
	if s.sql == nil || s.sql.max <= 0 {
		return nil
	}
	held, err := placesHeld(tx, except, now)
	if err != nil || held < s.sql.max {
		return err
	}
	return store.Problems{{Reason: fmt.Sprintf("Not enough capacity for another sqldb (mysql) instance: %d of %d places are held "+
		"(--sqldb-max-instances=%d, --sqldb-max-memory shared among them); delete or suspend one, or raise the limit", held, s.sql.max, s.sql.max)}}
}

// placesHeld counts the connectable instances that listen or will once provisioned.
func placesHeld(tx kv.Tx, except uint64, now time.Time) (int, error) {
	n := 0
	err := store.Each(tx, store.CloudDatabases, nil, func(_ []byte, d cloudstore.Database) (bool, error) {
		if d = d.At(now); d.ID != except && (listens(d) || d.Connectable() && d.Deleted == nil && d.Status == cloudstore.DBProvisioning) {
			n++
		}
		return true, nil
	})
	return n, err
}
