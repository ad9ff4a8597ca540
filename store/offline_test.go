package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/store/kv"
)

// fillFile writes n values of about 1 KiB (a nested bucket with a sequence among them) into a new
// data file at path, deletes every one but each tenth, and closes it: a file with many free pages.
func fillFile(t *testing.T, path string, n int) {
	t.Helper()
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Write(func(tx kv.Tx) error {
		b := tx.Bucket([]byte(testItems))
		for i := 0; i < n; i++ {
			if err := b.Put([]byte(fmt.Sprintf("%06d", i)), []byte(strings.Repeat("v", 1000))); err != nil {
				return err
			}
		}
		nested, err := b.CreateBucket([]byte("nested"))
		if err != nil {
			return err
		}
		if err := nested.SetSequence(42); err != nil {
			return err
		}
		return nested.Put([]byte("k"), []byte{})
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Write(func(tx kv.Tx) error {
		b := tx.Bucket([]byte(testItems))
		for i := 0; i < n; i++ {
			if i%10 != 0 {
				if err := b.Delete([]byte(fmt.Sprintf("%06d", i))); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestOfflineReportsAGoodFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	fillFile(t, path, 1000)
	o, err := OpenOffline(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if err := o.Check(); err != nil {
		t.Fatal(err)
	}
	if v, err := o.SchemaVersion(); err != nil || v != SchemaVersion() {
		t.Fatalf("schema %d, %v", v, err)
	}
	buckets, err := o.Buckets()
	if err != nil {
		t.Fatal(err)
	}
	var items *BucketInfo
	for i := range buckets {
		if buckets[i].Name == testItems {
			items = &buckets[i]
		}
	}
	if items == nil || items.Keys != 102 || items.Bytes < 100*1000 || !items.Registered {
		t.Fatalf("%s: %+v", testItems, items)
	}
}

func TestOfflineRefusesAFileInUse(t *testing.T) {
	db := openTemp(t, Strict)
	before, _ := os.ReadFile(db.Path())
	if _, err := OpenOffline(db.Path(), 50e6); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "another pocketforge") {
		t.Fatalf("offline open of a file in use: %v", err)
	}
	_, err := Compact(db.Path(), CompactOptions{LockTimeout: 50e6, Backup: db.Path() + ".bak"})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("compact of a file in use: %v", err)
	}
	after, _ := os.ReadFile(db.Path())
	if string(before) != string(after) {
		t.Fatal("the file in use changed")
	}
	entries, _ := os.ReadDir(filepath.Dir(db.Path()))
	if len(entries) != 1 {
		t.Fatalf("compact left files beside the data file: %v", entries)
	}
}

func TestOfflineFindsDamage(t *testing.T) {
	dir := t.TempDir()
	snap := damagedSnapshot(t, Strict)
	path := filepath.Join(dir, "damaged.db")
	os.WriteFile(path, flip(snap, midKey(t, snap), 64), 0o600)
	o, err := OpenOffline(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if err := o.Check(); !errors.Is(err, ErrNotPocketforge) || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("check of a damaged file: %v", err)
	}
	if _, err := Compact(path, CompactOptions{}); !errors.Is(err, ErrNotPocketforge) {
		t.Fatalf("compact of a damaged file: %v", err)
	}

	junk := filepath.Join(dir, "junk.db")
	os.WriteFile(junk, []byte(strings.Repeat("not bbolt", 2000)), 0o600)
	if _, err := OpenOffline(junk, 0); !errors.Is(err, ErrNotPocketforge) {
		t.Fatalf("offline open of junk: %v", err)
	}
	if _, err := OpenOffline(filepath.Join(dir, "missing.db"), 0); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("offline open of a missing file: %v", err)
	}
}

func TestCompactShrinksAndKeepsEverything(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	fillFile(t, path, 3000)
	var want [32]byte
	o, err := OpenOffline(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	o.View(func(tx kv.Tx) (err error) { want, _, err = contentDigest(tx); return })
	o.Close()

	res, err := Compact(path, CompactOptions{Backup: path + ".bak"})
	if err != nil {
		t.Fatal(err)
	}
	if res.After >= res.Before/2 || res.Keys < 301 {
		t.Fatalf("compact: %+v", res)
	}
	if st, err := os.Stat(path + ".bak"); err != nil || st.Size() != res.Before {
		t.Fatalf("backup: %v", err)
	}
	if _, err := Compact(path, CompactOptions{Backup: path + ".bak"}); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("compact over an existing backup: %v", err)
	}
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx kv.Tx) error {
		got, _, err := contentDigest(tx)
		if got != want {
			return errors.New("contents changed")
		}
		if seq := tx.Bucket([]byte(testItems)).Bucket([]byte("nested")).Sequence(); seq != 42 {
			return fmt.Errorf("nested sequence %d", seq)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
