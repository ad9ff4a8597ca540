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

// TestPostgresSnapshotIsADataFile: a node's snapshot is a whole data file of its own (schema
// record and appliance state included) with the database's content, which a laptop opens; the
// node's replica, named as a data file, is refused by start and the offline tools alike.
func TestPostgresSnapshotIsADataFile(t *testing.T) {
	db := openPG(t, pgtest.URL(t))
	if err := db.Write(func(tx kv.Tx) error {
		return store.Put(tx, store.BucketOutbox, store.Itob(7), map[string]string{"to": "x"})
	}); err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(t.TempDir(), "snap.db")
	if err := db.SnapshotFile(snap, false); err != nil {
		t.Fatal(err)
	}
	want, _, err := db.ContentDigest()
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := store.Open(filepath.Join(t.TempDir(), "fresh.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if _, err := fresh.RestoreFile(snap); err != nil {
		t.Fatalf("restoring a database's snapshot: %v", err)
	}
	o, err := store.OpenOffline(snap, 0)
	if err != nil {
		t.Fatalf("the snapshot is not a data file: %v", err)
	}
	got, _, err := store.ContentDigest(o)
	o.Close()
	if err != nil || got != want {
		t.Fatalf("the snapshot's content digest %s (%v), the database's %s", got, err, want)
	}

	replica := db.Path()
	db.Close()
	if _, err := store.Open(replica, store.Options{}); !errors.Is(err, store.ErrIsReplica) {
		t.Errorf("a replica opened as a data file: %v", err)
	}
	if _, err := store.OpenOffline(replica, 0); !errors.Is(err, store.ErrIsReplica) {
		t.Errorf("a replica opened by an offline tool: %v", err)
	}
}
