package store_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/pgtest"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

func openPG(t *testing.T, url string) *store.DB {
	t.Helper()
	db, err := store.OpenPostgres(url, filepath.Join(t.TempDir(), "replica.db"), store.Options{Poll: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestPostgresNewerSchema: a database a newer pocketforge wrote is refused, naming both versions
// and the database (its password masked).
func TestPostgresNewerSchema(t *testing.T) {
	url := pgtest.URL(t)
	db := openPG(t, url)
	if err := db.Write(func(tx kv.Tx) error {
		return tx.Bucket([]byte(store.BucketMeta)).Put([]byte("schema_version"), store.Itob(99))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err := store.OpenPostgres(url, filepath.Join(t.TempDir(), "r.db"), store.Options{})
	if !errors.Is(err, store.ErrNewerSchema) || !strings.Contains(err.Error(), "version 99") ||
		!strings.Contains(err.Error(), fmt.Sprintf("up to %d", store.SchemaVersion())) || !strings.Contains(err.Error(), "database postgres://") {
		t.Fatalf("a newer schema: %v", err)
	}
}

// TestPostgresFollowMovesVersion: another node's commit moves this node's store version (its
// memos start afresh) and tells the OnFollow listeners which buckets changed.
func TestPostgresFollowMovesVersion(t *testing.T) {
	url := pgtest.URL(t)
	a, b := openPG(t, url), openPG(t, url)
	told := make(chan []string, 16)
	b.OnFollow(func(buckets []string) { told <- buckets })
	v0 := b.Version()
	if err := a.Write(func(tx kv.Tx) error {
		return store.Put(tx, store.BucketOutbox, store.Itob(1), map[string]string{"to": "x"})
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case buckets := <-told:
		if len(buckets) != 1 || buckets[0] != store.BucketOutbox {
			t.Errorf("told %v", buckets)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the follower was not told")
	}
	if b.Version() == v0 {
		t.Error("the version did not move")
	}
	got, err := store.Get[map[string]string](mustView(t, b), store.BucketOutbox, store.Itob(1))
	if err != nil || got["to"] != "x" {
		t.Errorf("the followed record: %v %v", got, err)
	}
}

// mustView returns a read transaction of db kept open until t ends.
func mustView(t *testing.T, db *store.DB) kv.Tx {
	t.Helper()
	txc, done := make(chan kv.Tx), make(chan struct{})
	go db.View(func(tx kv.Tx) error { txc <- tx; <-done; return nil })
	t.Cleanup(func() { close(done) })
	return <-txc
}
