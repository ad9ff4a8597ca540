// Package demofile gives a test a data file of its own holding the demo world: a copy of a
// template seeded once per test binary (apitest.DataFile), so the API and page tests start from
// the world serve loads without loading it each time. It is apart from apitest, which the
// domains' own tests import, because it imports the fixtures and so every domain.
package demofile

import (
	"path/filepath"

	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/pgtest"
	"github.com/pocketforge/pocketforge/internal/testkit/testdb"

	"github.com/pocketforge/pocketforge/fixtures"
	"github.com/pocketforge/pocketforge/internal/testkit/apitest"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/appliance"
	"github.com/pocketforge/pocketforge/store/kv"
)

// Credentials are the appliance credentials a template is seeded with; the zero value seeds
// none.
type Credentials struct {
	Token, AdminPassword string
}

// Path is a new data file of t's own: the demo world loaded at now, after creds, copied from
// the template called name (one template per name and test binary).
func Path(t testing.TB, name string, now time.Time, creds Credentials) string {
	t.Helper()
	return apitest.DataFile(t, name, func(path string) error { return Seed(path, now, creds) })
}

// Open is Path opened without fsync (a test's data need not survive a crash), closed when t
// ends.
func Open(t testing.TB, name string, now time.Time, creds Credentials) *store.DB {
	t.Helper()
	path := Path(t, name, now, creds)
	if pgtest.Postgres(t) {
		return onPostgres(t, path)
	}
	db, err := store.Open(path, store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// onPostgres is the data file at path copied into a fresh PostgreSQL database (as pocketforge
// migrate does), for POCKETFORGE_TEST_BACKEND=postgres.
func onPostgres(t testing.TB, path string) *store.DB {
	t.Helper()
	src, err := store.OpenOffline(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	url := pgtest.URL(t)
	db, err := store.OpenPostgres(url, filepath.Join(t.TempDir(), "replica.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	testdb.Remember(db, url)
	t.Cleanup(func() { db.Close() })
	if _, err := db.CopyAll(src); err != nil {
		t.Fatal(err)
	}
	return db
}

// Seed writes creds and the demo world at now into a new data file at path (a template's
// seed, for tests that add to the world before it is copied).
func Seed(path string, now time.Time, creds Credentials) error {
	db, err := store.Open(path, store.Options{Durability: store.NoSync})
	if err != nil {
		return err
	}
	defer db.Close()
	if creds != (Credentials{}) {
		if err := db.Exclusive(func(tx kv.Tx) error {
			_, err := appliance.EnsureCredentials(tx, creds.Token, creds.AdminPassword)
			return err
		}); err != nil {
			return err
		}
	}
	_, err = fixtures.Ensure(db, false, now)
	return err
}
