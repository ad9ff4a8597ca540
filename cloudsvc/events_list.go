package cloudsvc

import (
	"math"

	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// EventQuery is a listing of an account's events: the index range a filter narrows them to,
// whether that range is the whole filter, the rest of the filter, and the page wanted.
type EventQuery struct {
	// Range narrows the events by id, creation time and entity (read from the filter by the
	// caller). Its start is moved up to EventHistory before now: older events are not shown.
	Range cloudstore.EventRange
	// Covered says the range alone is the filter (no other condition, no ordering), so the
	// page can be cut from index keys without decoding the events around it.
	Covered bool
	// Match is the rest of the filter (nil: every event).
	Match func(cloudstore.Event) bool
	// Window picks the positions [from, to) of the page out of a list of total events (the
	// paging rules of the API).
	Window func(total int) (from, to int)
}

// EventList is the answer to an EventQuery.
type EventList struct {
	// Events are, when Windowed, the page's events only (Total counts them all); otherwise
	// every event the caller may see that matches, newest first, for the caller to order and
	// page.
	Events   []cloudstore.Event
	Total    int
	Windowed bool
}

// ListEvents lists by's events for q: only the last EventHistory, and only what by's grants let
// them see (CanSeeEvent), each as it stands now (cloudstore.Event.At). When the range covers the filter and by is unrestricted (so every
// event is visible), the events are counted from index keys and only the page's are decoded;
// otherwise every candidate in the range is decoded and checked.
func (s *Service) ListEvents(by cloudstore.User, q EventQuery) (EventList, error) {
	r := q.Range
	now := s.clk.Now()
	if from := now.Add(-EventHistory); r.From.Before(from) {
		r.From = from
	}
	var out EventList
	err := s.db.View(func(tx kv.Tx) (err error) {
		if q.Covered && !by.Restricted {
			out, err = eventPageFromIndex(tx, by.AccountID, r, q.Window)
		} else {
			out, err = visibleEvents(tx, by, r, q.Match)
		}
		return err
	})
	for i := range out.Events {
		out.Events[i] = out.Events[i].At(now) // a long-running action's status by the clock
	}
	return out, err
}

// eventPageFromIndex counts the candidates and keeps only the ids of the page asked for (one pass
// over index keys; a second only when the page asked for is past the last), then decodes just
// those events.
func eventPageFromIndex(tx kv.Tx, account uint64, r cloudstore.EventRange, window func(int) (int, int)) (EventList, error) {
	wantFrom, wantTo := window(math.MaxInt / 2) // the page's span if the list were long enough
	total, ids, err := eventWindow(tx, account, r, wantFrom, wantTo)
	if err != nil {
		return EventList{}, err
	}
	from, to := window(total)
	if from != wantFrom { // a page past the end: the rules pick another span
		if _, ids, err = eventWindow(tx, account, r, from, to); err != nil {
			return EventList{}, err
		}
	}
	if to <= from {
		ids = nil
	}
	out := EventList{Events: make([]cloudstore.Event, 0, len(ids)), Total: total, Windowed: true}
	for _, id := range ids {
		e, err := cloudstore.AccountEvent(tx, account, id)
		if err != nil {
			return out, err
		}
		out.Events = append(out.Events, e)
	}
	return out, nil
}

// eventWindow counts the candidates and returns the ids at positions [from, to).
func eventWindow(tx kv.Tx, account uint64, r cloudstore.EventRange, from, to int) (int, []uint64, error) {
	total := 0
	var ids []uint64
	err := cloudstore.EventCandidates(tx, account, r, func(id uint64) bool {
		if total >= from && total < to {
			ids = append(ids, id)
		}
		total++
		return true
	})
	return total, ids, err
}

// visibleEvents decodes every candidate and keeps what by may see and match accepts.
func visibleEvents(tx kv.Tx, by cloudstore.User, r cloudstore.EventRange, match func(cloudstore.Event) bool) (EventList, error) {
	var events []cloudstore.Event
	var ferr error
	err := cloudstore.EventCandidates(tx, by.AccountID, r, func(id uint64) bool {
		e, err := cloudstore.AccountEvent(tx, by.AccountID, id)
		if err != nil {
			ferr = err
			return false
		}
		if CanSeeEvent(by, e) && (match == nil || match(e)) {
			events = append(events, e)
		}
		return true
	})
	if err == nil {
		err = ferr
	}
	if err != nil {
		return EventList{}, err
	}
	return EventList{Events: events, Total: len(events)}, nil
}
