package buildstore

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestPublishedNamesMigration: a data file written before the published name index (schema 4)
// gets it filled from its published trees when opened; only RPMs of an arch directory are in
// it.
func TestPublishedNamesMigration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := store.Open(path, store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	must(t, db, func(tx kv.Tx) error {
		for _, p := range []string{"x86_64/bash-5.2-1.1.x86_64.rpm", "src/bash-5.2-1.1.src.rpm", "repodata/repomd.xml",
			"noarch/bash-doc-5.2-1.1.noarch.rpm", "repodata/bash-5.2-1.1.x86_64.rpm"} {
			if err := PutPublished(tx, "a:b", "standard", p, []byte("x")); err != nil {
				return err
			}
		}
		return nil
	})
	db = reopenOld(t, db, path, 4, func(tx kv.Tx) error {
		return tx.DeleteBucket([]byte(store.BuildFarmPublishedNames))
	})
	defer db.Close()
	want := []PublishedPlace{{"a:b", "standard", "src/bash-5.2-1.1.src.rpm"}, {"a:b", "standard", "x86_64/bash-5.2-1.1.x86_64.rpm"}}
	must(t, db, func(tx kv.Tx) error {
		if got := PublishedPlaces(tx, "bash"); !reflect.DeepEqual(got, want) {
			t.Errorf("bash: %v, want %v", got, want)
		}
		if got := PublishedPlaces(tx, "bash-doc"); len(got) != 1 {
			t.Errorf("bash-doc: %v", got)
		}
		if err := DeletePublished(tx, "a:b", "standard"); err != nil {
			return err
		}
		if got := PublishedPlaces(tx, "bash"); got != nil {
			t.Errorf("bash after the tree was deleted: %v", got)
		}
		return nil
	})
}
