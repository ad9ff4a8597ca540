package cloudsvc

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// record writes the event of an action user by took, in the action's own transaction, so an
// action and its event commit together or not at all.
func record(tx kv.Tx, by cloudstore.User, action string, entity *cloudstore.EventEntity, now time.Time) error {
	name := by.Username
	return cloudstore.RecordEvent(tx, &cloudstore.Event{
		AccountID: by.AccountID, Action: action, Created: now, Username: &name, Entity: entity,
	})
}

// recordOperation records action on database d: an event started now that ends with d's
// transient status (finished, or failed when d ends failed), or, when d has none, an instant
// one (issue 33: the Terraform provider waits for database_create and database_update to
// finish).
func recordOperation(tx kv.Tx, by cloudstore.User, action string, d cloudstore.Database, now time.Time) error {
	name := by.Username
	e := cloudstore.Event{AccountID: by.AccountID, Action: action, Created: now, Username: &name, Entity: d.EventEntity()}
	if d.Next != "" && d.Until.After(now) {
		outcome := cloudstore.EventFinished
		if d.Next == cloudstore.DBFailed {
			outcome = cloudstore.EventFailed
		}
		e.StartedUntil(d.Until, outcome)
	}
	return cloudstore.RecordEvent(tx, &e)
}

// prepareRecord encodes, before the transaction, the event record would write (see
// cloudstore.PreparedEvent); the transaction stores it with cloudstore.RecordPrepared.
func prepareRecord(by cloudstore.User, action string, entity *cloudstore.EventEntity, now time.Time) (cloudstore.PreparedEvent, error) {
	name := by.Username
	return cloudstore.PrepareEvent(cloudstore.Event{AccountID: by.AccountID, Action: action, Created: now, Username: &name, Entity: entity})
}

// EventHistory is how far back events reach (the seed's 90 days): older ones are not shown.
const EventHistory = 90 * 24 * time.Hour

// visibleEvent returns account event id if u may see it (grants) and it is within
// EventHistory of now.
func visibleEvent(tx kv.Tx, u cloudstore.User, id uint64, now time.Time) (cloudstore.Event, error) {
	e, err := cloudstore.AccountEvent(tx, u.AccountID, id)
	if err == nil && (!CanSeeEvent(u, e) || e.Created.Before(now.Add(-EventHistory))) {
		err = fmt.Errorf("event %d: %w", id, store.ErrNotFound)
	}
	return e, err
}

// Event returns event id of by's account, if by may see it.
func (s *Service) Event(by cloudstore.User, id uint64) (cloudstore.Event, error) {
	now := s.clk.Now()
	var e cloudstore.Event
	err := s.db.View(func(tx kv.Tx) (err error) { e, err = visibleEvent(tx, by, id, now); return })
	return e.At(now), err
}

// MarkEventRead marks event id of by's account read, if by may see it.
func (s *Service) MarkEventRead(by cloudstore.User, id uint64) error {
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		if _, err := visibleEvent(tx, by, id, now); err != nil {
			return err
		}
		return cloudstore.MarkEventRead(tx, by.AccountID, id)
	})
}

// MayMarkEventsSeen says whether by may mark events seen: restricted users need read_write
// access to the account (the reference's grant for /seen). MarkEventsSeen checks it too.
func MayMarkEventsSeen(by cloudstore.User) error {
	if by.Restricted && by.Grants.AccountAccess() != cloudstore.ReadWrite {
		return errUnauthorized
	}
	return nil
}

// MarkEventsSeen marks every event of by's account up to and including id as seen; id must be
// an event by may see.
func (s *Service) MarkEventsSeen(by cloudstore.User, id uint64) error {
	if err := MayMarkEventsSeen(by); err != nil {
		return err
	}
	now := s.clk.Now()
	return s.db.Write(func(tx kv.Tx) error {
		if _, err := visibleEvent(tx, by, id, now); err != nil {
			return err
		}
		return cloudstore.MarkEventsSeen(tx, by.AccountID, id)
	})
}
