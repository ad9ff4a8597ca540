// Package testdb opens the empty data files tests write to. It is apart from testkit, which the
// store's own tests import, so that testkit need not import the store.
package testdb

import (
	"path/filepath"
	"sync"
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
		url := pgtest.URL(t)
		if db, err = store.OpenPostgres(url, filepath.Join(t.TempDir(), "replica.db"), store.Options{}); err == nil {
			Remember(db, url)
		}
	} else {
		db, err = store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// urls are the databases of the stores Open (and demofile) made on PostgreSQL, for Reopen.
var urls sync.Map

// Remember notes that db is the PostgreSQL database at url, for Reopen.
func Remember(db *store.DB, url string) { urls.Store(db, url) }

// Reopen closes db, which Open, Reopen or demofile made, and opens the same data again, as a restart of
// the appliance does: the data file, or on PostgreSQL the same database through the same
// replica. The new store is closed when t ends.
func Reopen(t testing.TB, db *store.DB) *store.DB {
	t.Helper()
	path := db.Path()
	url, onPG := urls.Load(db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	var err error
	if onPG {
		if db, err = store.OpenPostgres(url.(string), path, store.Options{}); err == nil {
			Remember(db, url.(string))
		}
	} else {
		db, err = store.Open(path, store.Options{Durability: store.NoSync})
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
