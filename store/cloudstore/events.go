package cloudstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
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
	// Until is when a long-running action ends (zero: an instant one), and Outcome how it ends,
	// finished or failed: the event is started until then (At). Stored with the event, so the
	// lifecycle survives a restart and follows the appliance clock like a database's status.
	Until   time.Time `json:"until,omitzero"`
	Outcome string    `json:"outcome,omitempty"`
	// Remaining is, while a long-running action is under way, the time until it ends (set by
	// At; not stored).
	Remaining *time.Duration `json:"-"`
}

// Event statuses of long-running actions.
const (
	EventStarted  = "started"
	EventFinished = "finished"
	EventFailed   = "failed"
)

// StartedUntil makes e a long-running action that started at e.Created and ends at until with
// outcome (EventFinished or EventFailed).
func (e *Event) StartedUntil(until time.Time, outcome string) {
	e.Status, e.Until, e.Outcome = EventStarted, until, outcome
	zero := 0
	e.PercentComplete = &zero
}

// At is e as it stands at now: a long-running action is started, with its percent_complete and
// the time remaining, until e.Until; from then on it is finished (or failed) at 100 % with its
// duration in seconds, as the real service shows an operation's event (the Terraform provider
// waits for finished).
func (e Event) At(now time.Time) Event {
	if e.Until.IsZero() {
		return e
	}
	total := e.Until.Sub(e.Created)
	if now.Before(e.Until) {
		done := 0
		if elapsed := now.Sub(e.Created); elapsed > 0 && total > 0 {
			done = min(int(elapsed*100/total), 99)
		}
		left := e.Until.Sub(now)
		e.Status, e.PercentComplete, e.Remaining, e.Duration = EventStarted, &done, &left, nil
		return e
	}
	full, secs := 100, total.Seconds()
	e.Status, e.PercentComplete, e.Remaining, e.Duration = e.Outcome, &full, nil, &secs
	if e.Status == "" {
		e.Status = EventFinished
	}
	return e
}

// RecordEvent stores e with the next id. An instant action is a "notification" event, as the real
// service records account actions.
func RecordEvent(tx kv.Tx, e *Event) error {
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

// PreparedEvent is an event encoded before its transaction begins, so that the transaction only
// numbers and stores it: in a group commit the writes' functions run one after another inside
// the one transaction, and every encoding done there delays them all.
type PreparedEvent struct {
	e    Event
	tail []byte // the JSON after the id: `,"account_id":…}`
}

// eventHead is how the JSON of an Event begins before its id is known (ID is its first field).
const eventHead = `{"id":0`

// PrepareEvent encodes e (its ID is given when it is recorded).
func PrepareEvent(e Event) (PreparedEvent, error) {
	e.ID = 0
	if e.Status == "" {
		e.Status = "notification"
	}
	data, err := json.Marshal(e)
	if err != nil {
		return PreparedEvent{}, err
	}
	if !bytes.HasPrefix(data, []byte(eventHead)) {
		return PreparedEvent{}, fmt.Errorf("event encoding begins %.10q, not with its id", data)
	}
	return PreparedEvent{e: e, tail: data[len(eventHead):]}, nil
}

// Entity is the entity of the prepared event.
func (p PreparedEvent) Entity() *EventEntity { return p.e.Entity }

// RecordPrepared stores p with the next id, as RecordEvent would store its event, and returns
// the id.
func RecordPrepared(tx kv.Tx, p PreparedEvent) (uint64, error) {
	b, err := store.Bucket(tx, store.CloudEvents)
	if err != nil {
		return 0, err
	}
	id, err := b.NextSequence()
	if err != nil {
		return 0, err
	}
	data := make([]byte, 0, len(`{"id":`)+20+len(p.tail))
	data = strconv.AppendUint(append(data, `{"id":`...), id, 10)
	if err := b.Put(store.Itob(id), append(data, p.tail...)); err != nil {
		return 0, err
	}
	e := p.e
	e.ID = id
	return id, indexEvent(tx, &e)
}

// indexEvent files an event under its account three ways — by id (the value holds the creation
// time), by creation time and by entity — so a filter on id, created or entity.id walks a key
// range, and the 90-day window is checked without decoding the event.
func indexEvent(tx kv.Tx, e *Event) error {
	acct := store.Itob(e.AccountID)
	created := store.Itob(uint64(e.Created.UnixNano()))
	if err := tx.Bucket([]byte(store.CloudAccountEvents)).Put(store.IndexKey(acct, store.Itob(e.ID)), created); err != nil {
		return err
	}
	if err := store.IndexAdd(tx, store.CloudEventsByCreated, acct, append(created, store.Itob(e.ID)...)); err != nil {
		return err
	}
	if e.Entity == nil {
		return nil
	}
	key := EntityPrefix(EntityIDText(e.Entity.ID), e.Entity.Type)
	return store.IndexAdd(tx, store.CloudEventsByEntity, acct, append(append(key, created...), store.Itob(e.ID)...))
}

// EntityPrefix is the start of an entity's keys in CloudEventsByEntity: the entity id as text,
// 0, then (when known) the entity type and 0.
func EntityPrefix(entityID, typ string) []byte {
	k := append([]byte(entityID), 0)
	if typ != "" {
		k = append(append(k, typ...), 0)
	}
	return k
}

// EntityIDText writes an entity id the way filters compare it: integers without exponent or
// fraction (JSON decoding turns them into float64), strings as they are.
func EntityIDText(id any) string {
	switch v := id.(type) {
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	}
	return fmt.Sprint(id)
}

// AccountEvents returns the account's events, oldest first (tests and small accounts; the API
// lists through EventCandidates).
func AccountEvents(tx kv.Tx, account uint64) ([]Event, error) {
	return store.IndexedRecords[Event](tx, store.CloudAccountEvents, store.Itob(account), store.CloudEvents)
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
func RecordLogin(tx kv.Tx, u User, ip string, now time.Time) (Login, error) {
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
