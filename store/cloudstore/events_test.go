package cloudstore

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestRecordPrepared: an event encoded before its transaction is stored and indexed exactly as
// RecordEvent stores and indexes the same event.
func TestRecordPrepared(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	name := "o\"<>&\u2028"
	event := func() Event {
		return Event{AccountID: 7, Action: "account_settings_update", Created: time.Date(2026, 11, 22, 12, 0, 0, 123456789, time.UTC), Username: &name,
			Entity: &EventEntity{ID: "e-uuid", Label: "a", Type: "account", URL: "/v4/account"}}
	}
	var prepared PreparedEvent
	if prepared, err = PrepareEvent(event()); err != nil {
		t.Fatal(err)
	}
	snapshot := func(tx kv.Tx, id uint64) (rec []byte, keys []string) {
		rec = append(rec, tx.Bucket([]byte(store.CloudEvents)).Get(store.Itob(id))...)
		for _, b := range []string{store.CloudAccountEvents, store.CloudEventsByCreated, store.CloudEventsByEntity} {
			tx.Bucket([]byte(b)).ForEach(func(k, v []byte) error {
				if bytes.HasSuffix(k, store.Itob(id)) {
					keys = append(keys, b+" "+string(bytes.TrimSuffix(k, store.Itob(id)))+" "+string(v))
				}
				return nil
			})
		}
		return rec, keys
	}
	err = db.Write(func(tx kv.Tx) error {
		e := event()
		if err := RecordEvent(tx, &e); err != nil {
			return err
		}
		id, err := RecordPrepared(tx, prepared)
		if err != nil || id != e.ID+1 {
			t.Fatalf("prepared got id %d (%v) after %d", id, err, e.ID)
		}
		recA, keysA := snapshot(tx, e.ID)
		recB, keysB := snapshot(tx, id)
		if want := bytes.Replace(recA, []byte(`{"id":1,`), []byte(`{"id":2,`), 1); !bytes.Equal(recB, want) {
			t.Errorf("prepared record\n%s\nwant\n%s", recB, want)
		}
		if len(keysA) != 3 || len(keysB) != 3 {
			t.Fatalf("index entries %q, %q", keysA, keysB)
		}
		for i := range keysA {
			if keysA[i] != keysB[i] {
				t.Errorf("index entry %q, want %q", keysB[i], keysA[i])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestEventAt (issue 33): a long-running action's event is started, with its progress and the
// time left, until it ends, then finished or failed at 100 % with its duration; an instant one
// is as recorded.
func TestEventAt(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	e := Event{Action: "database_create", Created: t0}
	e.StartedUntil(t0.Add(40*time.Second), EventFinished)
	for _, tc := range []struct {
		at      time.Duration
		status  string
		percent int
		left    time.Duration
	}{{0, EventStarted, 0, 40 * time.Second}, {10 * time.Second, EventStarted, 25, 30 * time.Second},
		{39 * time.Second, EventStarted, 97, time.Second}, {40 * time.Second, EventFinished, 100, -1}, {time.Hour, EventFinished, 100, -1}} {
		got := e.At(t0.Add(tc.at))
		if got.Status != tc.status || *got.PercentComplete != tc.percent || (tc.left < 0) != (got.Remaining == nil) ||
			got.Remaining != nil && *got.Remaining != tc.left || (tc.left < 0) != (got.Duration != nil) {
			t.Errorf("at %v: %s %d%% left %v duration %v", tc.at, got.Status, *got.PercentComplete, got.Remaining, got.Duration)
		}
	}
	if d := e.At(t0.Add(time.Hour)).Duration; d == nil || *d != 40 {
		t.Errorf("duration %v", d)
	}
	failing := e
	failing.Outcome = EventFailed
	if got := failing.At(t0.Add(time.Minute)).Status; got != EventFailed {
		t.Errorf("a failing operation ends %s", got)
	}
	instant := Event{Action: "user_create", Created: t0, Status: "notification"}
	if got := instant.At(t0.Add(time.Hour)); got.Status != "notification" || got.PercentComplete != nil {
		t.Errorf("an instant event: %+v", got)
	}
}
