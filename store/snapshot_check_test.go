package store

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit"

	"github.com/pocketforge/pocketforge/store/kv"
)

// damagedSnapshot returns a snapshot of many records, nested buckets among them, both with and
// without a freelist page (a NoSync data file writes none), so its middle holds keys and element
// headers, where damage shows.
func damagedSnapshot(t *testing.T, mode Durability) []byte {
	t.Helper()
	src := openTemp(t, mode)
	src.Write(func(tx kv.Tx) error {
		b := tx.Bucket([]byte(testItems))
		for i := 0; i < 3000; i++ {
			key := fmt.Sprintf("%06d/%s", i, strings.Repeat("k", 60))
			if err := b.Put([]byte(key), []byte(`{"n":1}`)); err != nil {
				return err
			}
			if i%500 == 0 {
				nested, _ := b.CreateBucket([]byte(key + "/nested"))
				for j := 0; j < 200; j++ {
					nested.Put([]byte(fmt.Sprintf("%04d%s", j, strings.Repeat("n", 40))), []byte("v"))
				}
			}
		}
		return nil
	})
	var snap bytes.Buffer
	if _, _, err := src.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	return snap.Bytes()
}

// flip returns a copy of b with the n bytes at off inverted.
func flip(b []byte, off, n int) []byte {
	c := append([]byte(nil), b...)
	for i := off; i < off+n && i < len(c); i++ {
		c[i] ^= 0xff
	}
	return c
}

// midKey is testkit.MidKey: a key mid-file, on a live leaf page (the copy here had drifted:
// it took freed pages too, where damage is no damage).
func midKey(t *testing.T, snap []byte) int { return testkit.MidKey(t, snap) }

// TestRestoreRefusesDamagedPages: 64 bytes flipped in the middle of a snapshot, on a key, are
// refused as not a pocketforge data file, and the live data stays as it was.
func TestRestoreRefusesDamagedPages(t *testing.T) {
	for _, mode := range []Durability{Strict, NoSync} {
		t.Run(fmt.Sprint(mode), func(t *testing.T) {
			snap := damagedSnapshot(t, mode)
			if err := checkStructure(bytes.NewReader(snap), int64(len(snap))); err != nil {
				t.Fatalf("a sound snapshot fails the check: %v", err)
			}
			db := openTemp(t, NoSync)
			db.Write(func(tx kv.Tx) error { return Put(tx, testItems, []byte("live"), item{1, "live"}) })
			_, err := db.Restore(bytes.NewReader(flip(snap, midKey(t, snap), 64)), 0)
			if !errors.Is(err, ErrNotPocketforge) || !strings.Contains(err.Error(), "damaged") {
				t.Fatalf("damaged snapshot: err = %v, want a damaged ErrNotPocketforge", err)
			}
			if n := count(t, db, testItems); n != 1 {
				t.Fatalf("live data touched: %d records", n)
			}
		})
	}
}

// TestRestoreSurvivesDamageAnywhere flips 64 bytes at offsets all over a snapshot: each restore
// either succeeds (the flip hit a value or a free page, which no check can tell from data) or is
// refused with ErrNotPocketforge; none panics or faults, which bbolt's own check, run on such a
// file first, does in goroutines no recover reaches.
func TestRestoreSurvivesDamageAnywhere(t *testing.T) {
	snap := damagedSnapshot(t, NoSync)
	db := openTemp(t, NoSync)
	refused := 0
	for off := 0; off < len(snap); off += 4093 {
		_, err := db.Restore(bytes.NewReader(flip(snap, off, 64)), 0)
		switch {
		case err == nil:
		case errors.Is(err, ErrNotPocketforge):
			refused++
		default:
			t.Fatalf("offset %d: %v", off, err)
		}
	}
	if refused == 0 {
		t.Fatal("no damaged copy was refused")
	}
}
