package store

import (
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/store/kv"
)

// TestRebuildIndex: a registered builder refills its bucket from nothing (stale keys go); an
// index nobody registered is an error, so a migration never leaves an empty index behind.
func TestRebuildIndex(t *testing.T) {
	db := openTemp(t, NoSync)
	const bucket = "test/rebuilt_index"
	RegisterIndexBuilder(bucket, func(tx kv.Tx) error {
		return tx.Bucket([]byte(bucket)).Put([]byte("fresh"), []byte("1"))
	})
	defer func() { delete(indexBuilders, bucket) }()
	err := db.Write(func(tx kv.Tx) error {
		b, err := tx.CreateBucket([]byte(bucket))
		if err == nil {
			err = b.Put([]byte("stale"), []byte("1"))
		}
		if err == nil {
			err = RebuildIndex(tx, bucket)
		}
		if b := tx.Bucket([]byte(bucket)); err == nil && (b.Get([]byte("stale")) != nil || b.Get([]byte("fresh")) == nil) {
			t.Error("the index was not rebuilt")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Write(func(tx kv.Tx) error { return RebuildIndex(tx, "test/unregistered") })
	if err == nil || !strings.Contains(err.Error(), "no builder is registered") {
		t.Fatalf("err = %v", err)
	}
}
