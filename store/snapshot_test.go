package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/kv/boltkv"
)

func TestSnapshotRestoreRoundTrip(t *testing.T) {
	forEachMode(t, func(t *testing.T, src *DB) {
		src.Write(func(tx kv.Tx) error {
			for i := 0; i < 100; i++ {
				id, _ := NextID(tx, testItems)
				Put(tx, testItems, Itob(id), item{id, "src"})
			}
			nested, _ := tx.Bucket([]byte(testItems)).CreateBucket([]byte("nested"))
			nested.Put([]byte("deep"), []byte("value"))
			return Put(tx, BucketAppliance, []byte("secret"), "source-secret")
		})
		var snap bytes.Buffer
		if _, ver, err := src.Snapshot(&snap); err != nil || ver != SchemaVersion() {
			t.Fatal(err, ver)
		}

		dst := openTemp(t, NoSync)
		dst.Write(func(tx kv.Tx) error {
			Put(tx, testItems, []byte("dst-only"), item{0, "dst"})
			return Put(tx, BucketAppliance, []byte("secret"), "dst-secret")
		})
		info, err := dst.Restore(bytes.NewReader(snap.Bytes()), 0)
		if err != nil {
			t.Fatal(err)
		}
		if info.Keys != 101 || info.SchemaVersion != SchemaVersion() {
			t.Fatalf("info = %+v", info)
		}
		dst.View(func(tx kv.Tx) error {
			if _, err := Get[item](tx, testItems, []byte("dst-only")); !errors.Is(err, ErrNotFound) {
				t.Error("data of the replaced file survived the restore")
			}
			if v, _ := Get[item](tx, testItems, Itob(100)); v.Name != "src" {
				t.Error("restored data missing")
			}
			if s := tx.Bucket([]byte(testItems)).Sequence(); s != 100 {
				t.Errorf("sequence %d, want 100", s)
			}
			if string(tx.Bucket([]byte(testItems)).Bucket([]byte("nested")).Get([]byte("deep"))) != "value" {
				t.Error("nested bucket not copied")
			}
			if s, _ := Get[string](tx, BucketAppliance, []byte("secret")); s != "dst-secret" {
				t.Errorf("appliance state replaced: %q", s)
			}
			return nil
		})
	})
}

func TestRestoreRefusesBadSnapshots(t *testing.T) {
	dir := t.TempDir()
	newer := filepath.Join(dir, "newer.db")
	rawFile(t, newer, func(tx kv.Tx) error {
		m, _ := tx.CreateBucket([]byte(BucketMeta))
		m.Put(metaApp, appMarker)
		return m.Put(metaSchema, Itob(SchemaVersion()+1))
	})
	foreign := filepath.Join(dir, "foreign.db")
	rawFile(t, foreign, func(tx kv.Tx) error { _, err := tx.CreateBucket([]byte("widgets")); return err })
	read := func(p string) []byte { b, _ := os.ReadFile(p); return b }
	good := openTemp(t, NoSync)
	var snap bytes.Buffer
	good.Snapshot(&snap)
	truncated := snap.Bytes()[:snap.Len()/2]

	cases := []struct {
		name  string
		body  []byte
		limit int64
		want  error
	}{
		{"empty body", nil, 0, ErrNotPocketforge},
		{"text", []byte("hello, this is not a snapshot"), 0, ErrNotPocketforge},
		{"foreign bbolt file", read(foreign), 0, ErrNotPocketforge},
		{"newer schema", read(newer), 0, ErrNewerSchema},
		{"truncated snapshot", truncated, 0, ErrNotPocketforge},
		{"over the size limit", snap.Bytes(), 1024, ErrInvalid},
	}
	db := openTemp(t, NoSync)
	db.Write(func(tx kv.Tx) error { return Put(tx, testItems, []byte("live"), item{1, "live"}) })
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := db.Restore(bytes.NewReader(c.body), c.limit)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if n := count(t, db, testItems); n != 1 {
				t.Fatalf("live data touched: %d records", n)
			}
		})
	}
}

// TestSnapshotDuringWrites takes snapshots while writers run; every writer keeps an invariant
// across two buckets in one transaction (items count == counter), which each restored snapshot
// must still hold.
func TestSnapshotDuringWrites(t *testing.T) {
	forEachMode(t, func(t *testing.T, db *DB) {
		var stop atomic.Bool
		var wg sync.WaitGroup
		for w := 0; w < 8; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; !stop.Load(); i++ {
					key := []byte(fmt.Sprintf("%d-%d", w, i))
					db.Write(func(tx kv.Tx) error {
						if err := Put(tx, testItems, key, item{Name: "x"}); err != nil {
							return err
						}
						n, err := Get[int](tx, testCounter, []byte("n"))
						if err != nil && !errors.Is(err, ErrNotFound) {
							return err
						}
						return Put(tx, testCounter, []byte("n"), n+1)
					})
				}
			}()
		}
		defer func() { stop.Store(true); wg.Wait() }()
		for s := 0; s < 5; s++ {
			var snap bytes.Buffer
			if _, _, err := db.Snapshot(&snap); err != nil {
				t.Fatal(err)
			}
			restored := openTemp(t, NoSync)
			if _, err := restored.Restore(&snap, 0); err != nil {
				t.Fatal(err)
			}
			restored.View(func(tx kv.Tx) error {
				items := tx.Bucket([]byte(testItems)).KeyN()
				n, _ := Get[int](tx, testCounter, []byte("n"))
				if items != n {
					t.Fatalf("snapshot %d inconsistent: %d items, counter %d", s, items, n)
				}
				boltkv.Check(tx, func(err error) {
					t.Fatalf("snapshot %d: %v", s, err)
				})
				return nil
			})
		}
	})
}

func TestReset(t *testing.T) {
	db := openTemp(t, NoSync)
	db.Write(func(tx kv.Tx) error {
		Put(tx, testItems, []byte("a"), item{})
		return Put(tx, BucketAppliance, []byte("keep"), "me")
	})
	if err := db.Exclusive(Reset); err != nil {
		t.Fatal(err)
	}
	if count(t, db, testItems) != 0 || count(t, db, BucketAppliance) != 1 {
		t.Fatal("reset must empty data buckets and keep appliance state")
	}
}

func TestSnapshotFile(t *testing.T) {
	db := openTemp(t, NoSync)
	path := filepath.Join(t.TempDir(), "snap.db")
	if err := db.SnapshotFile(path, false); err != nil {
		t.Fatal(err)
	}
	if err := db.SnapshotFile(path, false); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("second export without force: %v", err)
	}
	if err := db.SnapshotFile(path, true); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RestoreFile(path); err != nil {
		t.Fatal(err)
	}
}
