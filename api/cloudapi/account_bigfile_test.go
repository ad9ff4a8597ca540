package cloudapi

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// bigFileSize is how far bigSettingsFile grows the demo data file: the size issue 31 saw writes
// slow down at.
const bigFileSize = 400 << 20

// bigFileName names the cached big file in the temp directory; the version changes whenever
// what fillEvents writes does.
const bigFileName = "pocketforge-bench-cloud-400mb-v1.db"

var bigFile struct {
	once sync.Once
	path string
	err  error
}

// bigSettingsFile returns a copy (in t's temp dir) of the demo data file grown to about 400 MB
// with the events a busy appliance keeps: a thousand accounts' events over 90 days (a tenth of
// them the demo account's), then a retention sweep that deleted the oldest tenth, leaving free
// pages in the file as deletions do. Building it takes about a minute, so the file is kept in
// the temp directory between runs and rebuilt only when missing.
func bigSettingsFile(tb testing.TB, now time.Time) string {
	tb.Helper()
	bigFile.once.Do(func() {
		bigFile.path = filepath.Join(os.TempDir(), bigFileName)
		if _, err := os.Stat(bigFile.path); err == nil {
			return
		}
		tmp := bigFile.path + fmt.Sprintf(".%d.tmp", os.Getpid())
		defer os.Remove(tmp)
		if bigFile.err = seed(tmp, now); bigFile.err != nil {
			return
		}
		if bigFile.err = fillEvents(tmp, now); bigFile.err != nil {
			return
		}
		bigFile.err = os.Rename(tmp, bigFile.path)
	})
	if bigFile.err != nil {
		tb.Fatalf("building the big data file: %v", bigFile.err)
	}
	path := filepath.Join(tb.TempDir(), "big.db")
	if err := copyFile(path, bigFile.path); err != nil {
		tb.Fatal(err)
	}
	return path
}

// bigEvent is the n-th event of the fill: its account (one in ten the demo account), when it
// happened (spread over the 90 days before now, in order) and what about.
func bigEvent(n, total int, now time.Time) cloudstore.Event {
	acct := uint64(2 + n%999)
	if n%10 == 0 {
		acct = 1
	}
	kinds := [...]struct{ action, typ string }{{"linode_boot", "linode"}, {"linode_create", "linode"},
		{"domain_record_create", "domain"}, {"volume_attach", "volume"}, {"user_update", "user"}, {"database_backup_create", "database"}}
	k := kinds[n%len(kinds)]
	user := fmt.Sprintf("user-%04d", acct)
	var id any = float64(1000 + n%5000)
	if k.typ == "user" {
		id = user
	}
	created := now.Add(-90 * 24 * time.Hour).Add(time.Duration(n) * (90 * 24 * time.Hour / time.Duration(total)))
	return cloudstore.Event{AccountID: acct, Action: k.action, Created: created.Truncate(time.Second), Username: &user,
		Entity:  &cloudstore.EventEntity{ID: id, Label: fmt.Sprintf("%s-%d", k.typ, n%5000), Type: k.typ, URL: fmt.Sprintf("/v4/%ss/%d", k.typ, 1000+n%5000)},
		Message: "", Status: "finished"}
}

// fillEvents grows the file at path to bigFileSize with bigEvents, then deletes the oldest tenth
// of them with their index entries, and opens it once durably so the freelist is on disk as a
// Strict appliance leaves it.
func fillEvents(path string, now time.Time) error {
	db, err := store.Open(path, store.Options{Durability: store.NoSync})
	if err != nil {
		return err
	}
	const perTx, estimate = 20000, 1_200_000
	type made struct {
		id uint64
		e  cloudstore.Event
	}
	var first []made // the events the sweep deletes
	n := 0
	for {
		st, err := os.Stat(path)
		if err != nil {
			db.Close()
			return err
		}
		if st.Size() >= bigFileSize {
			break
		}
		err = db.Exclusive(func(tx kv.Tx) error {
			for i := 0; i < perTx; i, n = i+1, n+1 {
				e := bigEvent(n, estimate, now)
				p, err := cloudstore.PrepareEvent(e)
				if err != nil {
					return err
				}
				id, err := cloudstore.RecordPrepared(tx, p)
				if err != nil {
					return err
				}
				if n < estimate/10 {
					first = append(first, made{id, e})
				}
			}
			return nil
		})
		if err != nil {
			db.Close()
			return err
		}
	}
	first = first[:min(len(first), n/10)]
	for len(first) > 0 {
		part := first[:min(len(first), perTx)]
		first = first[len(part):]
		err := db.Exclusive(func(tx kv.Tx) error {
			for _, m := range part {
				acct, id := store.Itob(m.e.AccountID), store.Itob(m.id)
				created := store.Itob(uint64(m.e.Created.UnixNano()))
				entity := cloudstore.EntityPrefix(cloudstore.EntityIDText(m.e.Entity.ID), m.e.Entity.Type)
				for _, d := range []struct {
					bucket string
					key    []byte
				}{{store.CloudEvents, id}, {store.CloudAccountEvents, store.IndexKey(acct, id)},
					{store.CloudEventsByCreated, store.IndexKey(acct, append(created, id...))},
					{store.CloudEventsByEntity, store.IndexKey(acct, append(append(entity, created...), id...))}} {
					if err := tx.Bucket([]byte(d.bucket)).Delete(d.key); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			db.Close()
			return err
		}
	}
	if err := db.Close(); err != nil {
		return err
	}
	db, err = store.Open(path, store.Options{Durability: store.Strict})
	if err != nil {
		return err
	}
	return db.Close()
}

// copyFile copies the file at from to a new file at to in page-sized writes, as bbolt writes its
// pages. Copied in large writes (cp, os.WriteFile, io.Copy's copy_file_range), the copy sits in
// the page cache in large folios, and every commit's fdatasync then writes whole folios: on the
// 400 MB file 1.7–1.9 MB a commit instead of about 0.1–0.25 MB, which is the copy's cost, not the
// store's (an appliance reads its file through bbolt's memory map, advised random: page by page).
func copyFile(to, from string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	// The wrappers hide ReaderFrom and WriterTo, so the copy goes through the buffer.
	if _, err := io.CopyBuffer(struct{ io.Writer }{dst}, struct{ io.Reader }{src}, make([]byte, 4096)); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Sync(); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
