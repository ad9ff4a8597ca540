package cloudstore

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"go.etcd.io/bbolt"
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
	snapshot := func(tx *bbolt.Tx, id uint64) (rec []byte, keys []string) {
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
	err = db.Write(func(tx *bbolt.Tx) error {
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
