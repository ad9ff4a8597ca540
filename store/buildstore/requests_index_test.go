package buildstore

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestRequestIndexFolds: the index keeps the values OBS compares ignoring case in lower case,
// so a lookup in any case finds them, and an action's type as it is.
func TestRequestIndexFolds(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := Request{ID: 1, Creator: "Alice", State: RequestState{Name: RequestNew},
		Actions: []RequestAction{{Type: "submit", Target: &ActionTarget{Project: "Devel:Tools", Package: "Hello"}}},
		Reviews: []Review{{State: "new", ByGroup: "Team"}}}
	must(t, db, func(tx kv.Tx) error { return PutRequest(tx, r) })
	for _, c := range []struct {
		key  []byte
		want []uint64
	}{
		{IndexKey(IndexCreator, "alice"), []uint64{1}},
		{IndexKey(IndexCreator, "ALICE"), []uint64{1}},
		{IndexKey(IndexTargetPackage, "devel:tools", "HELLO"), []uint64{1}},
		{IndexKey(IndexReviewGroup, "team"), []uint64{1}},
		{IndexKey(IndexType, "submit"), []uint64{1}},
		{IndexKey(IndexType, "Submit"), nil},
	} {
		var got []uint64
		must(t, db, func(tx kv.Tx) (err error) { got, err = RequestIDs(tx, c.key); return err })
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.key, got, c.want)
		}
	}
}

// TestRequestIndexMigration: a data file of schema version 2, whose request index kept values
// as they were written, gets it rebuilt in lower case when it is opened.
func TestRequestIndexMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := store.Open(path, store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	must(t, db, func(tx kv.Tx) error {
		return PutRequest(tx, Request{ID: 7, Creator: "Bob", State: RequestState{Name: RequestNew}})
	})
	// Make it the file version 2 wrote: the creator as written.
	db = reopenOld(t, db, path, 2, func(tx kv.Tx) error {
		idx := tx.Bucket([]byte(store.BuildRequestIndex))
		if err := idx.Delete(append(IndexKey(IndexCreator, "bob"), store.Itob(7)...)); err != nil {
			return err
		}
		return idx.Put(append([]byte("creator\x00Bob\x00"), store.Itob(7)...), nil)
	})
	defer db.Close()
	var got, stale []uint64
	must(t, db, func(tx kv.Tx) (err error) {
		if got, err = RequestIDs(tx, IndexKey(IndexCreator, "BOB")); err != nil {
			return err
		}
		stale, err = RequestIDs(tx, []byte("creator\x00Bob\x00"))
		return err
	})
	if !slices.Equal(got, []uint64{7}) || stale != nil {
		t.Errorf("after the migration: %v under bob, %v under the old key", got, stale)
	}
}
