package buildstore

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestSweepPending: an upload never committed goes after the grace period; one committed, or
// content some revision already held, stays.
func TestSweepPending(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	t0 := time.Unix(1_800_000_000, 0)
	err = db.Write(func(tx kv.Tx) error {
		held, _ := PutBlob(tx, []byte("held\n"))
		if _, err := AppendRevision(tx, "P", "K", []FileEntry{{Name: "a", MD5: held}}, Revision{User: "alice"}, t0); err != nil {
			return err
		}
		orphan, _ := PutPendingBlob(tx, []byte("orphan\n"), t0)
		committed, _ := PutPendingBlob(tx, []byte("committed\n"), t0)
		again, _ := PutPendingBlob(tx, []byte("held\n"), t0) // already held: not noted
		if _, err := AppendRevision(tx, "P", "K", []FileEntry{{Name: "a", MD5: held}, {Name: "b", MD5: committed}}, Revision{User: "alice"}, t0); err != nil {
			return err
		}
		if list, _ := ExpiredPending(tx, t0.Add(time.Hour)); len(list) != 0 {
			t.Errorf("expired within the grace period: %v", list)
		}
		later := t0.Add(PendingGrace + time.Second)
		list, err := ExpiredPending(tx, later)
		if err != nil || len(list) != 1 || list[0] != orphan {
			t.Fatalf("expired: %v %v", list, err)
		}
		if err := SweepPending(tx, list, later); err != nil {
			return err
		}
		if HasBlob(tx, orphan) || !HasBlob(tx, committed) || !HasBlob(tx, again) {
			t.Errorf("after the sweep: orphan %v committed %v held %v", HasBlob(tx, orphan), HasBlob(tx, committed), HasBlob(tx, again))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
