// Package testdb opens the empty data files tests write to. It is apart from testkit, which the
// store's own tests import, so that testkit need not import the store.
package testdb

import (
	"path/filepath"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/pgtest"
	"github.com/pocketforge/pocketforge/store"
)

// Open opens an empty data file in t's temp directory, without fsync (a test's data need not
// survive a crash), closed when t ends. With POCKETFORGE_TEST_BACKEND=postgres it is a fresh
// PostgreSQL database instead, the replica in t's temp directory (pgtest.Postgres).
func Open(t testing.TB) *store.DB {
	t.Helper()
	var db *store.DB
	var err error
	if pgtest.Postgres(t) {
		db, err = store.OpenPostgres(pgtest.URL(t), filepath.Join(t.TempDir(), "replica.db"), store.Options{})
	} else {
		db, err = store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
