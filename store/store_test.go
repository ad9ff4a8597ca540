package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/kv/boltkv"
)

// Test-only buckets, registered before any test opens a file.
const (
	testItems   = "test/items"
	testCounter = "test/counter"
)

func TestMain(m *testing.M) {
	registry = append(registry, bucketSpec{name: testItems}, bucketSpec{name: testCounter})
	os.Exit(m.Run())
}

type item struct {
	ID   uint64 `json:"id"`
	Name string `json:"name"`
}

var modes = []Durability{Strict, NoSync}

// forEachMode runs fn as a subtest against a fresh data file in every durability mode.
func forEachMode(t *testing.T, fn func(t *testing.T, db *DB)) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			fn(t, openTemp(t, mode))
		})
	}
}

func openTemp(t testing.TB, mode Durability) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "data.db"), Options{Durability: mode})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestOpenCreatesFile(t *testing.T) {
	forEachMode(t, func(t *testing.T, db *DB) {
		err := db.View(func(tx kv.Tx) error {
			for _, b := range registry {
				if tx.Bucket([]byte(b.name)) == nil {
					return fmt.Errorf("bucket %s missing", b.name)
				}
			}
			v, err := fileVersion(tx, db.Path())
			if err == nil && v != SchemaVersion() {
				err = fmt.Errorf("schema %d, want %d", v, SchemaVersion())
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func TestCRUD(t *testing.T) {
	forEachMode(t, func(t *testing.T, db *DB) {
		cases := []struct {
			name string
			run  func(tx kv.Tx) error
			want error
		}{
			{"put", func(tx kv.Tx) error { return Put(tx, testItems, []byte("a"), item{1, "a"}) }, nil},
			{"get", func(tx kv.Tx) error {
				v, err := Get[item](tx, testItems, []byte("a"))
				if err == nil && v.Name != "a" {
					err = fmt.Errorf("got %+v", v)
				}
				return err
			}, nil},
			{"get missing", func(tx kv.Tx) error { _, err := Get[item](tx, testItems, []byte("zz")); return err }, ErrNotFound},
			{"delete missing", func(tx kv.Tx) error { return Delete(tx, testItems, []byte("zz")) }, ErrNotFound},
			{"delete", func(tx kv.Tx) error { return Delete(tx, testItems, []byte("a")) }, nil},
			{"get deleted", func(tx kv.Tx) error { _, err := Get[item](tx, testItems, []byte("a")); return err }, ErrNotFound},
			{"unregistered bucket", func(tx kv.Tx) error { return Put(tx, "nope", []byte("a"), 1) }, nil},
			{"undecodable value", func(tx kv.Tx) error {
				tx.Bucket([]byte(testItems)).Put([]byte("bad"), []byte("{"))
				_, err := Get[item](tx, testItems, []byte("bad"))
				return err
			}, nil},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				err := db.Write(c.run)
				switch {
				case c.name == "unregistered bucket" || c.name == "undecodable value":
					if err == nil {
						t.Fatal("want an error")
					}
				case !errors.Is(err, c.want) && !(c.want == nil && err == nil):
					t.Fatalf("err = %v, want %v", err, c.want)
				}
			})
		}
	})
}

func TestEachAndNextID(t *testing.T) {
	forEachMode(t, func(t *testing.T, db *DB) {
		err := db.Write(func(tx kv.Tx) error {
			for i := 0; i < 5; i++ {
				id, err := NextID(tx, testItems)
				if err != nil {
					return err
				}
				if err := Put(tx, testItems, Itob(id), item{id, fmt.Sprint("n", id)}); err != nil {
					return err
				}
			}
			return Put(tx, testItems, []byte("x-other"), item{99, "other"})
		})
		if err != nil {
			t.Fatal(err)
		}
		var got []uint64
		err = db.View(func(tx kv.Tx) error {
			return Each(tx, testItems, []byte{0}, func(k []byte, v item) (bool, error) {
				got = append(got, v.ID)
				return len(got) < 4, nil
			})
		})
		if err != nil || fmt.Sprint(got) != "[1 2 3 4]" {
			t.Fatalf("Each = %v, %v; want ids 1..4 in order, stopping at 4", got, err)
		}
	})
}

func TestReopenKeepsData(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "data.db")
			db, err := Open(path, Options{Durability: mode})
			if err != nil {
				t.Fatal(err)
			}
			db.Write(func(tx kv.Tx) error { return Put(tx, testItems, []byte("k"), item{7, "kept"}) })
			db.Close()
			db, err = Open(path, Options{Durability: mode})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			db.View(func(tx kv.Tx) error {
				v, err := Get[item](tx, testItems, []byte("k"))
				if err != nil || v.Name != "kept" {
					t.Fatalf("after reopen: %+v %v", v, err)
				}
				return nil
			})
		})
	}
}

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	newer := filepath.Join(dir, "newer.db")
	rawFile(t, newer, func(tx kv.Tx) error {
		m, _ := tx.CreateBucket([]byte(BucketMeta))
		m.Put(metaApp, appMarker)
		return m.Put(metaSchema, Itob(SchemaVersion()+98))
	})
	foreign := filepath.Join(dir, "foreign.db")
	rawFile(t, foreign, func(tx kv.Tx) error { _, err := tx.CreateBucket([]byte("widgets")); return err })
	garbage := filepath.Join(dir, "garbage.db")
	os.WriteFile(garbage, bytes.Repeat([]byte("not a database "), 2000), 0o600)
	locked := filepath.Join(dir, "locked.db")
	holder, err := Open(locked, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()

	cases := []struct {
		name, path string
		want       error
		text       string
	}{
		{"newer schema", newer, ErrNewerSchema, fmt.Sprintf("version %d", SchemaVersion()+98)},
		{"foreign bbolt file", foreign, ErrNotPocketforge, "no pocketforge metadata"},
		{"not a bbolt file", garbage, ErrNotPocketforge, garbage},
		{"second opener", locked, ErrLocked, "another pocketforge"},
		{"missing directory", filepath.Join(dir, "no", "such", "dir.db"), nil, "directory does not exist"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db, err := Open(c.path, Options{LockTimeout: 100 * time.Millisecond})
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded")
			}
			if c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if !strings.Contains(err.Error(), c.text) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err %q should be one line naming %q", err, c.text)
			}
		})
	}
}

// rawFile writes a bbolt file with fn, bypassing the store.
func rawFile(t *testing.T, path string, fn func(tx kv.Tx) error) {
	t.Helper()
	db, err := boltkv.Open(path, boltkv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
	db.Close()
}

func TestMigrations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Write(func(tx kv.Tx) error { return Put(tx, testItems, []byte("old"), item{1, "OLD"}) })
	db.Close()

	saved := migrations
	defer func() { migrations = saved }()
	upper := migration{"upper-case names", func(tx kv.Tx) error {
		return Put(tx, testItems, []byte("old"), item{1, "migrated"})
	}}
	failing := migration{"fails", func(tx kv.Tx) error { return errors.New("boom") }}

	t.Run("failing migration leaves the file alone", func(t *testing.T) {
		migrations = append(append([]migration{}, saved...), upper, failing)
		_, err := Open(path, Options{})
		if want := fmt.Sprintf("migration %d (fails): boom", len(saved)+3); err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("err = %v", err)
		}
		migrations = saved
		db, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		db.View(func(tx kv.Tx) error {
			if v, _ := Get[item](tx, testItems, []byte("old")); v.Name != "OLD" {
				t.Fatalf("half-migrated: %+v", v)
			}
			return nil
		})
	})
	t.Run("older file is migrated at open", func(t *testing.T) {
		migrations = append(append([]migration{}, saved...), upper)
		db, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		db.View(func(tx kv.Tx) error {
			v, _ := Get[item](tx, testItems, []byte("old"))
			ver, _ := fileVersion(tx, path)
			if v.Name != "migrated" || ver != SchemaVersion() {
				t.Fatalf("got %+v at version %d", v, ver)
			}
			return nil
		})
	})
}

func TestConcurrentWrites(t *testing.T) {
	forEachMode(t, func(t *testing.T, db *DB) {
		const writers, each = 64, 20
		var wg sync.WaitGroup
		errs := make(chan error, writers*each)
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < each; i++ {
					key := []byte(fmt.Sprintf("w%02d-%02d", w, i))
					errs <- db.Write(func(tx kv.Tx) error { return Put(tx, testItems, key, item{Name: string(key)}) })
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		if n := count(t, db, testItems); n != writers*each {
			t.Fatalf("%d records, want %d", n, writers*each)
		}
	})
}

func TestBatchedFailureIsolated(t *testing.T) {
	db := openTemp(t, NoSync)
	var wg sync.WaitGroup
	results := make([]error, 32)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = db.Write(func(tx kv.Tx) error {
				if i%4 == 0 {
					return fmt.Errorf("writer %d: %w", i, ErrInvalid)
				}
				return Put(tx, testItems, []byte(fmt.Sprint(i)), item{Name: "ok"})
			})
		}()
	}
	wg.Wait()
	for i, err := range results {
		if (i%4 == 0) != errors.Is(err, ErrInvalid) {
			t.Fatalf("writer %d: err = %v", i, err)
		}
	}
	if n := count(t, db, testItems); n != 24 {
		t.Fatalf("%d records, want 24", n)
	}
}

func count(t testing.TB, db *DB, bucket string) int {
	t.Helper()
	n := 0
	db.View(func(tx kv.Tx) error { n = tx.Bucket([]byte(bucket)).KeyN(); return nil })
	return n
}

// TestSlowCommitGroupsLateWriters: writers that arrive one by one while a commit is under way
// (a slow fsync) all share the next commit. bbolt's Batch closed a batch on its 1 ms timer even
// when it then had to wait for the commit before it, so writers arriving over one slow fsync
// were cut into many small batches, each paying an fsync of its own (issue 13: 64 concurrent
// settings writes reached 0.39 of raw bbolt Batch).
func TestSlowCommitGroupsLateWriters(t *testing.T) {
	db := openTemp(t, NoSync)
	release := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		db.Write(func(tx kv.Tx) error { <-release; return Put(tx, testItems, []byte("slow"), item{Name: "slow"}) })
	}()
	time.Sleep(20 * time.Millisecond) // the slow commit is under way
	var mu sync.Mutex
	txs := map[uint64]bool{}
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := db.Write(func(tx kv.Tx) error {
				mu.Lock()
				txs[uint64(tx.ID())] = true
				mu.Unlock()
				return Put(tx, testItems, []byte(fmt.Sprint(i)), item{Name: "late"})
			})
			if err != nil {
				t.Error(err)
			}
		}()
		time.Sleep(3 * time.Millisecond) // longer than the batch delay
	}
	close(release)
	wg.Wait()
	if len(txs) != 1 {
		t.Fatalf("10 writers that arrived during one commit took %d commits, want 1", len(txs))
	}
	if n := count(t, db, testItems); n != 11 {
		t.Fatalf("%d records, want 11", n)
	}
}

// TestGroupGathersOnlyUntilWritersAreBack: once writes overlap, the next group waits for the
// writers just answered to come back — and no longer. A fixed wait of the whole batch delay per
// group idled the disk after every writer was back (issue 13: at 64 writers over HTTP the delay
// was most of each round). With a 400 ms delay, 8 writers doing 6 writes each in turn finish in
// a fraction of the six delays a fixed wait costs.
func TestGroupGathersOnlyUntilWritersAreBack(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "data.db"), Options{Durability: NoSync, BatchDelay: 400 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	began := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 6; i++ {
				if err := db.Write(func(tx kv.Tx) error {
					time.Sleep(time.Millisecond) // a commit takes a while: the writers overlap
					return Put(tx, testItems, []byte(fmt.Sprint(w, "-", i)), item{Name: "w"})
				}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if took := time.Since(began); took > 1200*time.Millisecond {
		t.Errorf("48 writes by 8 writers took %v: groups waited out the batch delay", took)
	}
	if n := count(t, db, testItems); n != 48 {
		t.Fatalf("%d records, want 48", n)
	}
}
