package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/bench"
	"github.com/pocketforge/pocketforge/store/kv"
	"go.etcd.io/bbolt"
)

// The store's hot paths against raw bbolt doing the same thing on the same file in the same run:
// x-raw is the store's time over raw bbolt's (1.0 = no overhead). Raw bbolt is given the value
// already JSON-encoded, so x-raw includes the codec.

type benchRecord struct {
	ID      uint64 `json:"id"`
	Label   string `json:"label"`
	Email   string `json:"email"`
	Created string `json:"created"`
	Active  bool   `json:"active"`
}

func record(i int) benchRecord {
	return benchRecord{uint64(i), fmt.Sprintf("user-%06d", i), fmt.Sprintf("user%d@example.com", i), "2026-11-22T03:55:49", true}
}

// BenchmarkPut: one durable write per call, sequential (a lone writer gets Update).
func BenchmarkPut(b *testing.B) {
	for _, mode := range modes {
		b.Run(mode.String(), func(b *testing.B) {
			db := openTemp(b, mode)
			raw := db.Bolt().Raw()
			val, _ := json.Marshal(record(1))
			bench.Compare(b, 1, func(i int) {
				must(b, db.Write(func(tx kv.Tx) error { return Put(tx, testItems, Itob(uint64(i)), record(i)) }))
			}, func(i int) {
				must(b, raw.Update(func(tx *bbolt.Tx) error { return tx.Bucket([]byte(testCounter)).Put(Itob(uint64(i)), val) }))
			})
		})
	}
}

// BenchmarkPutConcurrent64: 64 writers at once, durable. The store groups overlapping writes into
// one commit; raw is one bbolt Update per request — the design budget says the store must win.
func BenchmarkPutConcurrent64(b *testing.B) {
	db := openTemp(b, Strict)
	raw := db.Bolt().Raw()
	val, _ := json.Marshal(record(1))
	bench.Compare(b, 64, func(i int) {
		must(b, db.Write(func(tx kv.Tx) error { return Put(tx, testItems, Itob(uint64(i)), record(i)) }))
	}, func(i int) {
		must(b, raw.Update(func(tx *bbolt.Tx) error { return tx.Bucket([]byte(testCounter)).Put(Itob(uint64(i)), val) }))
	})
}

// BenchmarkGet: one record read and decoded per read transaction, vs raw View + Get.
func BenchmarkGet(b *testing.B) {
	db := openTemp(b, NoSync)
	const n = 10000
	fill(b, db, n)
	raw := db.Bolt().Raw()
	var sink int
	bench.Compare(b, 1, func(i int) {
		must(b, db.View(func(tx kv.Tx) error {
			v, err := Get[benchRecord](tx, testItems, Itob(uint64(i%n)))
			sink += len(v.Label)
			return err
		}))
	}, func(i int) {
		must(b, raw.View(func(tx *bbolt.Tx) error {
			sink += len(tx.Bucket([]byte(testItems)).Get(Itob(uint64(i % n))))
			return nil
		}))
	})
}

// BenchmarkList: a page of 100 records decoded in key order, vs a raw cursor over the same keys.
func BenchmarkList(b *testing.B) {
	db := openTemp(b, NoSync)
	const n, page = 10000, 100
	fill(b, db, n)
	raw := db.Bolt().Raw()
	var sink int
	bench.Compare(b, 1, func(i int) {
		got := 0
		must(b, db.View(func(tx kv.Tx) error {
			return Each(tx, testItems, nil, func(k []byte, v benchRecord) (bool, error) {
				got++
				sink += len(v.Label)
				return got < page, nil
			})
		}))
	}, func(i int) {
		must(b, raw.View(func(tx *bbolt.Tx) error {
			c := tx.Bucket([]byte(testItems)).Cursor()
			got := 0
			for k, v := c.First(); k != nil && got < page; k, v = c.Next() {
				got++
				sink += len(v)
			}
			return nil
		}))
	})
}

// BenchmarkIndexedList: page 1 of 100 out of one parent's 10,000 indexed records — a cloud
// listing in index order (invoices, payments). "all-then-page" is what listings did (decode every
// record, then cut the page); "page-only" is IndexedPage (count the index keys, decode the page).
// Raw walks the same index keys with a cursor and reads the page's values undecoded.
func BenchmarkIndexedList(b *testing.B) {
	db := openTemp(b, NoSync)
	const n, page = 10000, 100
	fill(b, db, n)
	must(b, db.Exclusive(func(tx kv.Tx) error {
		for i := 0; i < n; i++ {
			if err := IndexAdd(tx, testCounter, Itob(7), Itob(uint64(i))); err != nil {
				return err
			}
		}
		return nil
	}))
	raw := db.Bolt().Raw()
	var sink int
	window := func(total int) (int, int) { return 0, min(page, total) }
	rawWalk := func(int) {
		must(b, raw.View(func(tx *bbolt.Tx) error {
			prefix := IndexKey(Itob(7), nil)
			records := tx.Bucket([]byte(testItems))
			c := tx.Bucket([]byte(testCounter)).Cursor()
			got := 0
			for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
				if got < page {
					sink += len(records.Get(k[len(prefix):]))
				}
				got++
			}
			sink += got
			return nil
		}))
	}
	b.Run("all-then-page", func(b *testing.B) {
		bench.Compare(b, 1, func(int) {
			must(b, db.View(func(tx kv.Tx) error {
				all, err := IndexedRecords[benchRecord](tx, testCounter, Itob(7), testItems)
				sink += len(all[:page])
				return err
			}))
		}, rawWalk)
	})
	b.Run("page-only", func(b *testing.B) {
		bench.Compare(b, 1, func(int) {
			must(b, db.View(func(tx kv.Tx) error {
				got, total, err := IndexedPage[benchRecord](tx, testCounter, Itob(7), testItems, window)
				sink += len(got) + total
				return err
			}))
		}, rawWalk)
	})
}

func fill(b *testing.B, db *DB, n int) {
	b.Helper()
	must(b, db.Exclusive(func(tx kv.Tx) error {
		for i := 0; i < n; i++ {
			if err := Put(tx, testItems, Itob(uint64(i)), record(i)); err != nil {
				return err
			}
		}
		return nil
	}))
}

func must(b *testing.B, err error) {
	if err != nil {
		b.Fatal(err)
	}
}
