package cloud

import (
	"fmt"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
)

// EventEntity is what an event is about.
type EventEntity struct {
	ID    any    `json:"id"` // an integer id, or a string (usernames, OAuth client ids)
	Label string `json:"label"`
	Type  string `json:"type"`
	URL   string `json:"url"`
}

// Event is one action taken on an account, recorded in the same transaction as the action.
type Event struct {
	ID              uint64       `json:"id"`
	AccountID       uint64       `json:"account_id"`
	Action          string       `json:"action"`
	Created         time.Time    `json:"created"`
	Username        *string      `json:"username"` // who did it; nil for the system
	Entity          *EventEntity `json:"entity"`
	SecondaryEntity *EventEntity `json:"secondary_entity"`
	Status          string       `json:"status"` // notification, finished, started, failed, scheduled
	PercentComplete *int         `json:"percent_complete"`
	Duration        *float64     `json:"duration"`
	Message         string       `json:"message"`
	Seen            bool         `json:"seen"`
	Read            bool         `json:"read"`
}

// RecordEvent stores e with the next id. An instant action is a "notification" event, as the real
// service records account actions.
func RecordEvent(tx *bbolt.Tx, e *Event) error {
	id, err := store.NextID(tx, store.CloudEvents)
	if err != nil {
		return err
	}
	e.ID = id
	if e.Status == "" {
		e.Status = "notification"
	}
	if err := store.Put(tx, store.CloudEvents, store.Itob(id), e); err != nil {
		return err
	}
	return indexEvent(tx, e)
}

// indexEvent files an event under its account three ways: by id, by creation time and by
// entity, so a filter on id, created or entity.id walks a key range instead of every event.
func indexEvent(tx *bbolt.Tx, e *Event) error {
	acct := store.Itob(e.AccountID)
	if err := store.IndexAdd(tx, store.CloudAccountEvents, acct, store.Itob(e.ID)); err != nil {
		return err
	}
	if err := store.IndexAdd(tx, store.CloudEventsByCreated, acct, CreatedKey(e.Created, e.ID)); err != nil {
		return err
	}
	if e.Entity == nil {
		return nil
	}
	return store.IndexAdd(tx, store.CloudEventsByEntity, acct, EntityKey(e.Entity.Type, e.Entity.ID, e.ID))
}

// CreatedKey orders events by creation time, then id: big-endian Unix nanoseconds, then the id.
func CreatedKey(t time.Time, id uint64) []byte {
	return append(store.Itob(uint64(t.UnixNano())), store.Itob(id)...)
}

// EntityKey groups events by entity: type, 0, the entity id as text, 0, then the event id.
// Pass id 0 and cut the last 8 bytes for the prefix of one entity's events.
func EntityKey(typ string, entityID any, id uint64) []byte {
	k := append([]byte(typ), 0)
	k = append(k, fmt.Sprint(entityID)...)
	k = append(k, 0)
	return append(k, store.Itob(id)...)
}

// AccountEvents returns the account's events, oldest first.
func AccountEvents(tx *bbolt.Tx, account uint64) ([]Event, error) {
	ids, err := store.IndexChildren(tx, store.CloudAccountEvents, store.Itob(account))
	if err != nil {
		return nil, err
	}
	out := make([]Event, 0, len(ids))
	for _, id := range ids {
		e, err := store.Get[Event](tx, store.CloudEvents, id)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// Login is a successful login to the login server.
type Login struct {
	ID         uint64    `json:"id"`
	AccountID  uint64    `json:"account_id"`
	Username   string    `json:"username"`
	Datetime   time.Time `json:"datetime"`
	IP         string    `json:"ip"`
	Restricted bool      `json:"restricted"`
}

// RecordLogin stores a successful login of u from ip.
func RecordLogin(tx *bbolt.Tx, u User, ip string, now time.Time) (Login, error) {
	id, err := store.NextID(tx, store.CloudLogins)
	if err != nil {
		return Login{}, err
	}
	l := Login{ID: id, AccountID: u.AccountID, Username: u.Username, Datetime: now, IP: ip, Restricted: u.Restricted}
	if err := store.Put(tx, store.CloudLogins, store.Itob(id), l); err != nil {
		return l, err
	}
	return l, store.IndexAdd(tx, store.CloudAccountLogins, store.Itob(u.AccountID), store.Itob(id))
}
