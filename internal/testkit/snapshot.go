// Package testkit holds test support shared by packages' tests (issue 35: one copy of each
// helper, where copies had drifted apart).
package testkit

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/kv/boltkv"
)

// MidKey returns the offset of the first key of the first live bbolt leaf page (flags 0x02,
// page header 16 bytes, then 16-byte elements whose second word is the key's offset) from the
// middle of snap on (wrapping around to its start): damage there keeps every offset inside its
// page but puts keys out of order, which only a check of the whole file sees. Which record lies
// mid-file varies from run to run; a key is damage a check can see (bbolt keeps no checksum of
// values). A page the data file freed still looks like a leaf, but damage there is no damage —
// a farm's writes leave many such pages — so bbolt, opening a copy, says which pages are free.
func MidKey(t testing.TB, snap []byte) int {
	t.Helper()
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(copyPath, snap, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := boltkv.Open(copyPath, boltkv.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const ps = 4096
	at := -1
	pages := len(snap) / ps
	db.View(func(tx kv.Tx) error {
		// From the middle on, then from the start (past the two meta pages): the second half
		// may hold only freed pages.
		for i := 0; i < pages && at < 0; i++ {
			page := (pages/2 + i) % pages
			if page < 2 {
				continue
			}
			p := snap[page*ps:]
			if binary.LittleEndian.Uint16(p[8:]) != 0x02 || binary.LittleEndian.Uint16(p[10:]) <= 1 {
				continue
			}
			if typ, ok := boltkv.PageType(tx, page); ok && typ == "leaf" {
				at = page*ps + 16 + int(binary.LittleEndian.Uint32(p[20:]))
			}
		}
		return nil
	})
	if at < 0 {
		t.Fatal("no live leaf page in the snapshot")
	}
	return at
}
