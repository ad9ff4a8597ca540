package cloudstore

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// EventRange narrows an account's events to the only ones a filter can match. Bounds are
// inclusive; zero values leave a side open.
type EventRange struct {
	IDFrom, IDTo uint64
	From, To     time.Time // creation time
	EntityID     string    // EntityIDText form; "" = any entity
	EntityType   string    // "" = any type
}

func (r EventRange) idTo() uint64 {
	if r.IDTo == 0 {
		return math.MaxUint64
	}
	return r.IDTo
}

func (r EventRange) toNanos() uint64 {
	if r.To.IsZero() {
		return math.MaxUint64
	}
	return uint64(r.To.UnixNano())
}

// holds reports whether an event with this id and creation time (Unix ns) is in the range.
func (r EventRange) holds(id, created uint64) bool {
	return id >= r.IDFrom && id <= r.idTo() && created >= uint64(max(r.From.UnixNano(), 0)) && created <= r.toNanos()
}

// EventCandidates calls fn with the id of every event of account in r, newest first, until fn
// returns false. It reads index keys only — no event is decoded — choosing the narrowest index:
// the entity index for an entity id, the id index for an id bound, the creation-time index
// otherwise.
func EventCandidates(tx kv.Tx, account uint64, r EventRange, fn func(id uint64) bool) error {
	acct := store.Itob(account)
	switch {
	case r.EntityID != "":
		return entityCandidates(tx, acct, r, fn)
	case r.IDFrom > 0 || r.IDTo > 0:
		b := tx.Bucket([]byte(store.CloudAccountEvents))
		lo, hi := store.IndexKey(acct, store.Itob(r.IDFrom)), store.IndexKey(acct, store.Itob(r.idTo()))
		return reverse(b, lo, hi, func(k, v []byte) bool {
			id := store.Btoi(k[len(k)-8:])
			return !r.holds(id, store.Btoi(v)) || fn(id)
		})
	default:
		b := tx.Bucket([]byte(store.CloudEventsByCreated))
		lo := store.IndexKey(acct, store.Itob(uint64(max(r.From.UnixNano(), 0))))
		hi := store.IndexKey(acct, append(store.Itob(r.toNanos()), store.Itob(math.MaxUint64)...))
		return reverse(b, lo, hi, func(k, _ []byte) bool {
			id := store.Btoi(k[len(k)-8:])
			return !r.holds(id, store.Btoi(k[len(k)-16:len(k)-8])) || fn(id)
		})
	}
}

// entityCandidates walks one entity's events (few), newest first.
func entityCandidates(tx kv.Tx, acct []byte, r EventRange, fn func(id uint64) bool) error {
	prefix := store.IndexKey(acct, EntityPrefix(r.EntityID, r.EntityType))
	var ids []uint64
	c := tx.Bucket([]byte(store.CloudEventsByEntity)).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		id, created := store.Btoi(k[len(k)-8:]), store.Btoi(k[len(k)-16:len(k)-8])
		if r.holds(id, created) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for i := len(ids) - 1; i >= 0; i-- {
		if !fn(ids[i]) {
			return nil
		}
	}
	return nil
}

// reverse walks the keys of b in [lo, hi] from hi down, until fn returns false.
func reverse(b kv.Bucket, lo, hi []byte, fn func(k, v []byte) bool) error {
	c := b.Cursor()
	k, v := c.Seek(hi)
	if k == nil {
		k, v = c.Last()
	} else if bytes.Compare(k, hi) > 0 {
		k, v = c.Prev()
	}
	for ; k != nil && bytes.Compare(k, lo) >= 0; k, v = c.Prev() {
		if !fn(k, v) {
			return nil
		}
	}
	return nil
}

// AccountEvent returns an event of the account (another account's is not found).
func AccountEvent(tx kv.Tx, account, id uint64) (Event, error) {
	e, err := store.Get[Event](tx, store.CloudEvents, store.Itob(id))
	if err != nil || e.AccountID != account {
		return Event{}, fmt.Errorf("event %d: %w", id, store.ErrNotFound)
	}
	e.Seen = e.Seen || id <= SeenThrough(tx, account)
	return e, nil
}

// MarkEventRead marks one event read.
func MarkEventRead(tx kv.Tx, account, id uint64) error {
	e, err := AccountEvent(tx, account, id)
	if err != nil {
		return err
	}
	e.Read = true
	return store.Put(tx, store.CloudEvents, store.Itob(id), e)
}

// MarkEventsSeen marks every event of the account up to and including id as seen: one
// watermark, not one write per event.
func MarkEventsSeen(tx kv.Tx, account, id uint64) error {
	if _, err := AccountEvent(tx, account, id); err != nil {
		return err
	}
	if id <= SeenThrough(tx, account) {
		return nil
	}
	return tx.Bucket([]byte(store.CloudEventsSeen)).Put(store.Itob(account), store.Itob(id))
}

// SeenThrough returns the id up to which the account's events are seen (0: none).
func SeenThrough(tx kv.Tx, account uint64) uint64 {
	return store.Btoi(tx.Bucket([]byte(store.CloudEventsSeen)).Get(store.Itob(account)))
}

// FailOperation turns the long-running action events of entity in account (those still to end
// as finished) into ones that end failed: an operation whose outcome is only known when it ends
// (a transfer's completion). It reports how many it changed.
func FailOperation(tx kv.Tx, account uint64, action string, entity *EventEntity) (int, error) {
	var ids []uint64
	r := EventRange{EntityID: EntityIDText(entity.ID), EntityType: entity.Type}
	if err := EventCandidates(tx, account, r, func(id uint64) bool { ids = append(ids, id); return true }); err != nil {
		return 0, err
	}
	changed := 0
	for _, id := range ids {
		e, err := store.Get[Event](tx, store.CloudEvents, store.Itob(id))
		if err != nil {
			return changed, err
		}
		if e.Action != action || e.Until.IsZero() || e.Outcome == EventFailed {
			continue
		}
		e.Outcome = EventFailed
		if err := store.Put(tx, store.CloudEvents, store.Itob(id), e); err != nil {
			return changed, err
		}
		changed++
	}
	return changed, nil
}
