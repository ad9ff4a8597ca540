package store

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/store/kv"
)

// TestSnapshotDigestRefusesEveryChange (issue 32): one changed byte anywhere data lives — a
// page header, a branch page, a leaf key, a leaf value, an overflow page — is refused with
// ErrNotPocketforge and the live data stays as it was; the unchanged snapshot restores. Without
// the digest a changed value was restored as "restored".
func TestSnapshotDigestRefusesEveryChange(t *testing.T) {
	src := openTemp(t, NoSync)
	big := strings.Repeat("overflow-value-", 1000) // 15 KB: a value over several pages
	src.Write(func(tx kv.Tx) error {
		b := tx.Bucket([]byte(testItems))
		for i := 0; i < 2000; i++ { // enough leaves for a branch page
			if err := b.Put([]byte(fmt.Sprintf("key-%05d", i)), []byte(fmt.Sprintf("value-%05d", i))); err != nil {
				return err
			}
		}
		return b.Put([]byte("big"), []byte(big))
	})
	var buf bytes.Buffer
	if _, _, err := src.Snapshot(&buf); err != nil {
		t.Fatal(err)
	}
	snap := buf.Bytes()
	if !bytes.HasPrefix(snap[len(snap)-digestTrailer:], []byte(digestMagic)) {
		t.Fatal("the snapshot carries no digest")
	}
	const ps = 4096
	branch := -1
	for page := 2; (page+1)*ps <= len(snap); page++ {
		if le.Uint16(snap[page*ps+8:]) == bbBranchPage {
			branch = page*ps + bbPageHeader + 2*bbElement + 4 // in its elements
			break
		}
	}
	leaf := bytes.Index(snap, []byte("key-01234")) / ps * ps
	cases := []struct {
		what string
		off  int
	}{
		{"page header", leaf + 10}, // the leaf's element count
		{"branch page", branch},
		{"leaf key", bytes.Index(snap, []byte("key-01234")) + 5},
		{"leaf value", bytes.Index(snap, []byte("value-01234")) + 7},
		{"overflow page", bytes.Index(snap, []byte(big)) + len(big)/2},
	}
	db := openTemp(t, NoSync)
	db.Write(func(tx kv.Tx) error { return Put(tx, testItems, []byte("live"), "kept") })
	for _, c := range cases {
		what, off := c.what, c.off
		if off < 0 {
			t.Fatalf("no %s in the snapshot", what)
		}
		damaged := append([]byte(nil), snap...)
		damaged[off] ^= 0x01
		if _, err := db.Restore(bytes.NewReader(damaged), 0); !errors.Is(err, ErrNotPocketforge) {
			t.Errorf("a byte changed in a %s (offset %d): %v, want refused", what, off, err)
		}
		var v string
		db.View(func(tx kv.Tx) (err error) { v, err = Get[string](tx, testItems, []byte("live")); return })
		if v != "kept" {
			t.Fatalf("after the refused %s: the live data changed", what)
		}
	}
	if _, err := db.Restore(bytes.NewReader(snap), 0); err != nil {
		t.Fatalf("the unchanged snapshot: %v", err)
	}
	var got []byte
	db.View(func(tx kv.Tx) error {
		got = append(got, tx.Bucket([]byte(testItems)).Get([]byte("big"))...)
		return nil
	})
	if string(got) != big {
		t.Fatal("the unchanged snapshot did not restore its data")
	}
	// a snapshot from before the trailer (a data file as it stands) still restores
	if _, err := db.Restore(bytes.NewReader(snap[:len(snap)-digestTrailer]), 0); err != nil {
		t.Fatalf("a snapshot without a digest: %v", err)
	}
}
