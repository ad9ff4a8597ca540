package buildstore

import (
	"errors"
	"testing"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/kv/boltkv"
)

// reopenOld closes db, makes its file the one schema version wrote (edit undoes what came after
// it: drops a bucket, rewrites an index's keys) and opens it again, migrating it. The caller
// closes the answer.
func reopenOld(t *testing.T, db *store.DB, path string, version uint64, edit func(tx kv.Tx) error) *store.DB {
	t.Helper()
	db.Close()
	raw, err := boltkv.Open(path, boltkv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := raw.Update(func(tx kv.Tx) error {
		if err := edit(tx); err != nil {
			return err
		}
		return tx.Bucket([]byte(store.BucketMeta)).Put([]byte("schema_version"), store.Itob(version))
	}); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db, err = store.Open(path, store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// The issue index's builder is the build domain's (buildsvc registers it with its issue scan).
// The store's tests migrate files from before schema 4 that hold no revision for the scan to
// read; this builder fills the index the same way and fails should one ever need the scan (that
// test belongs in buildsvc, beside TestIssueIndexMigration).
func init() {
	store.RegisterIndexBuilder(store.BuildIssueIndex, func(tx kv.Tx) error {
		return RebuildIssueIndex(tx, func(kv.Tx, string, string, Revision) ([]PackageIssue, error) {
			return nil, errors.New("the store's tests have no issue scan: it is buildsvc's")
		})
	})
}
