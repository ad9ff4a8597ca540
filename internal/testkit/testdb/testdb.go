// Package testdb opens the empty data files tests write to. It is apart from testkit, which the
// store's own tests import, so that testkit need not import the store.
package testdb

import (
	"path/filepath"
	"testing"

	"github.com/pocketforge/pocketforge/store"
)

// Open opens an empty data file in t's temp directory, without fsync (a test's data need not
// survive a crash), closed when t ends.
func Open(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
