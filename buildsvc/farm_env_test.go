package buildsvc

import (
	"path/filepath"
	"testing"

	"github.com/pocketforge/pocketforge/store"
)

// testDB opens an empty data file for a test.
func testDB(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
