package pgkv_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/pgtest"
	"github.com/pocketforge/pocketforge/store/kv"
	"github.com/pocketforge/pocketforge/store/kv/pgkv"
)

func open(t *testing.T, url string) *pgkv.DB {
	t.Helper()
	db, err := pgkv.Open(url, pgkv.Options{Replica: filepath.Join(t.TempDir(), "replica.db"), Poll: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// digest is the content of the data set as a kv reader sees it: every bucket, sequence, key and
// value, nested buckets in place.
func digest(t *testing.T, db kv.Engine) string {
	t.Helper()
	h := sha256.New()
	var walk func(b kv.Bucket)
	walk = func(b kv.Bucket) {
		fmt.Fprintf(h, "s%d;", b.Sequence())
		b.ForEach(func(k, v []byte) error {
			if v == nil {
				if c := b.Bucket(k); c != nil {
					fmt.Fprintf(h, "b%q{", k)
					walk(c)
					fmt.Fprint(h, "}")
					return nil
				}
			}
			fmt.Fprintf(h, "%q=%q;", k, v)
			return nil
		})
	}
	err := db.View(func(tx kv.Tx) error {
		return tx.ForEach(func(name []byte, b kv.Bucket) error {
			fmt.Fprintf(h, "B%q{", name)
			walk(b)
			fmt.Fprint(h, "}")
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// eventually waits (on the follower's poll) until cond holds.
func eventually(t *testing.T, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v", within)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestSemantics: what one node writes — nested buckets, sequences, deletes by key and by cursor,
// a bucket deleted and one moved, keys holding 0x00 — a second node opened later and a node
// following along both read, byte for byte; cursors walk in order both ways.
func TestSemantics(t *testing.T) {
	url := pgtest.URL(t)
	a := open(t, url)
	b := open(t, url)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(a.Update(func(tx kv.Tx) error {
		top, err := tx.CreateBucket([]byte("top"))
		if err != nil {
			return err
		}
		for i := 0; i < 50; i++ {
			if err := top.Put([]byte(fmt.Sprintf("k%03d", i)), []byte(fmt.Sprintf("v%d", i))); err != nil {
				return err
			}
		}
		nested, err := top.CreateBucket([]byte("nest\x00ed"))
		if err != nil {
			return err
		}
		deeper, _ := nested.CreateBucket([]byte("deeper"))
		deeper.Put([]byte("\x00\x00key"), []byte("zero"))
		deeper.Put([]byte("empty"), []byte{})
		if _, err := nested.NextSequence(); err != nil {
			return err
		}
		nested.SetSequence(41)
		src, _ := tx.CreateBucket([]byte("src"))
		mv, _ := src.CreateBucket([]byte("moving"))
		mv.Put([]byte("a"), []byte("1"))
		gone, _ := tx.CreateBucket([]byte("gone"))
		gone.Put([]byte("x"), []byte("y"))
		return nil
	}))
	must(a.Update(func(tx kv.Tx) error {
		top := tx.Bucket([]byte("top"))
		top.Delete([]byte("k001"))
		c := top.Cursor()
		for k, _ := c.Seek([]byte("k010")); k != nil && bytes.Compare(k, []byte("k013")) < 0; k, _ = c.Seek([]byte("k010")) {
			if err := c.Delete(); err != nil {
				return err
			}
		}
		dst, _ := tx.CreateBucket([]byte("dst"))
		if err := tx.Bucket([]byte("src")).MoveBucket([]byte("moving"), dst); err != nil {
			return err
		}
		return tx.DeleteBucket([]byte("gone"))
	}))
	want := digest(t, a)
	eventually(t, time.Second, func() bool { return digest(t, b) == want })
	c := open(t, url) // a node started later copies everything
	if got := digest(t, c); got != want {
		t.Fatalf("a late node reads %s, want %s", got, want)
	}
	must(c.View(func(tx kv.Tx) error {
		top := tx.Bucket([]byte("top"))
		if top.Get([]byte("k001")) != nil || top.Get([]byte("k011")) != nil || string(top.Get([]byte("k013"))) != "v13" {
			t.Error("deletes did not travel")
		}
		if tx.Bucket([]byte("gone")) != nil || tx.Bucket([]byte("src")).Bucket([]byte("moving")) != nil ||
			string(tx.Bucket([]byte("dst")).Bucket([]byte("moving")).Get([]byte("a"))) != "1" {
			t.Error("the bucket delete or move did not travel")
		}
		n := top.Bucket([]byte("nest\x00ed"))
		if n.Sequence() != 41 || string(n.Bucket([]byte("deeper")).Get([]byte("\x00\x00key"))) != "zero" {
			t.Errorf("nested: sequence %d", n.Sequence())
		}
		if v := n.Bucket([]byte("deeper")).Get([]byte("empty")); v == nil || len(v) != 0 {
			t.Errorf("an empty value reads %v", v)
		}
		cur := top.Cursor()
		if k, _ := cur.Last(); string(k) != "nest\x00ed" {
			t.Errorf("last %q", k)
		}
		if k, _ := cur.Prev(); string(k) != "k049" {
			t.Errorf("prev %q", k)
		}
		if k, _ := cur.First(); string(k) != "k000" {
			t.Errorf("first %q", k)
		}
		if k, _ := cur.Next(); string(k) != "k002" {
			t.Errorf("next %q", k)
		}
		// the replica's bookkeeping is not data
		if k, _ := tx.Cursor().First(); string(k) != "dst" {
			t.Errorf("the first top-level bucket is %q", k)
		}
		return nil
	}))
}

// TestNoLostUpdate: eight nodes add to one counter at once; every increment is there.
func TestNoLostUpdate(t *testing.T) {
	url := pgtest.URL(t)
	nodes := make([]*pgkv.DB, 8)
	for i := range nodes {
		nodes[i] = open(t, url)
	}
	if err := nodes[0].Update(func(tx kv.Tx) error { _, err := tx.CreateBucket([]byte("c")); return err }); err != nil {
		t.Fatal(err)
	}
	const each = 25
	var wg sync.WaitGroup
	for _, n := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				err := n.Update(func(tx kv.Tx) error {
					b := tx.Bucket([]byte("c"))
					v := uint64(0)
					if cur := b.Get([]byte("n")); cur != nil {
						v = binary.BigEndian.Uint64(cur)
					}
					return b.Put([]byte("n"), binary.BigEndian.AppendUint64(nil, v+1))
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for i, n := range nodes {
		eventually(t, 2*time.Second, func() bool {
			var v uint64
			n.View(func(tx kv.Tx) error { v = binary.BigEndian.Uint64(tx.Bucket([]byte("c")).Get([]byte("n"))); return nil })
			return v == 8*each
		})
		if s := n.Status(); s.Applied != s.Head {
			t.Errorf("node %d: applied %d of %d", i, s.Applied, s.Head)
		}
	}
}

// TestLargeValue: a value of the source file limit travels whole.
func TestLargeValue(t *testing.T) {
	url := pgtest.URL(t)
	a, b := open(t, url), open(t, url)
	big := bytes.Repeat([]byte("0123456789abcdef"), 100<<20/16)
	if err := a.Update(func(tx kv.Tx) error {
		bk, err := tx.CreateBucket([]byte("blobs"))
		if err != nil {
			return err
		}
		return bk.Put([]byte("big"), big)
	}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, func() bool {
		same := false
		b.View(func(tx kv.Tx) error {
			if bk := tx.Bucket([]byte("blobs")); bk != nil {
				same = bytes.Equal(bk.Get([]byte("big")), big)
			}
			return nil
		})
		return same
	})
}

// TestTooLarge: a commit over the limit is refused before anything is sent; nothing is written.
func TestTooLarge(t *testing.T) {
	url := pgtest.URL(t)
	a := open(t, url)
	old := pgkv.MaxCommitBytes
	pgkv.MaxCommitBytes = 1 << 20
	defer func() { pgkv.MaxCommitBytes = old }()
	err := a.Update(func(tx kv.Tx) error {
		bk, _ := tx.CreateBucket([]byte("blobs"))
		return bk.Put([]byte("big"), make([]byte, 2<<20))
	})
	if !errors.Is(err, pgkv.ErrTooLarge) {
		t.Fatalf("err %v, want ErrTooLarge", err)
	}
	a.View(func(tx kv.Tx) error {
		if tx.Bucket([]byte("blobs")) != nil {
			t.Error("the refused commit left a bucket in the replica")
		}
		return nil
	})
	if c := open(t, url); digest(t, c) != digest(t, a) {
		t.Error("the refused commit reached the database")
	}
}

// TestOpenErrors: an unreachable database names its URL with the password masked; a newer
// layout is refused naming both versions.
func TestOpenErrors(t *testing.T) {
	_, err := pgkv.Open("postgres://alice:s3cret@127.0.0.1:1/x?connect_timeout=1", pgkv.Options{Replica: filepath.Join(t.TempDir(), "r.db"), ConnectTimeout: time.Second})
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "alice:xxxxx@127.0.0.1:1") || !errors.Is(err, pgkv.ErrUnavailable) {
		t.Fatalf("unreachable: %v", err)
	}
	url := pgtest.URL(t)
	a := open(t, url)
	if _, err := a.Pool().Exec(t.Context(), `UPDATE pf_meta SET value = '99' WHERE name = 'layout'`); err != nil {
		t.Fatal(err)
	}
	_, err = pgkv.Open(url, pgkv.Options{Replica: filepath.Join(t.TempDir(), "r.db")})
	if !errors.Is(err, pgkv.ErrNewerLayout) || !strings.Contains(err.Error(), "layout 99") || !strings.Contains(err.Error(), fmt.Sprintf("layout %d", pgkv.Layout)) {
		t.Fatalf("newer layout: %v", err)
	}
}

// TestReplicaOfAnotherDatabase: a replica file left from another database is thrown away.
func TestReplicaOfAnotherDatabase(t *testing.T) {
	one, two := pgtest.URL(t), pgtest.URL(t)
	replica := filepath.Join(t.TempDir(), "replica.db")
	a, err := pgkv.Open(one, pgkv.Options{Replica: replica})
	if err != nil {
		t.Fatal(err)
	}
	a.Update(func(tx kv.Tx) error { _, err := tx.CreateBucket([]byte("only-in-one")); return err })
	a.Close()
	b, err := pgkv.Open(two, pgkv.Options{Replica: replica})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.View(func(tx kv.Tx) error {
		if tx.Bucket([]byte("only-in-one")) != nil {
			t.Error("the replica of another database was kept")
		}
		return nil
	})
}
