package buildstore

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestPackageNames: the key-only listing tells tombstones apart even when a description holds the
// marker's text (it is escaped inside a JSON string).
func TestPackageNames(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Write(func(tx kv.Tx) error {
		for _, k := range []Package{
			{Project: "p", Name: "a", Description: `"deleted":true`},
			{Project: "p", Name: "b"},
			{Project: "p", Name: "c"},
			{Project: "p2", Name: "other"},
		} {
			if err := PutPackage(tx, k); err != nil {
				return err
			}
		}
		return DeletePackage(tx, "p", "b")
	})
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx kv.Tx) error {
		live, _ := PackageNames(tx, "p", false)
		gone, _ := PackageNames(tx, "p", true)
		if fmt.Sprint(live) != "[a c]" || fmt.Sprint(gone) != "[b]" {
			t.Fatalf("live %v, deleted %v", live, gone)
		}
		return nil
	})
}
