package store

import (
	"fmt"
	"testing"

	"github.com/pocketforge/pocketforge/store/kv"
)

func TestIndex(t *testing.T) {
	db := openTemp(t, NoSync)
	err := db.Write(func(tx kv.Tx) error {
		IndexAdd(tx, testItems, Itob(1), []byte("b"))
		IndexAdd(tx, testItems, Itob(1), []byte("a"))
		IndexAdd(tx, testItems, Itob(12), []byte("c")) // a parent that is a prefix of none of the others
		IndexAdd(tx, testItems, []byte("al"), []byte("x"))
		IndexAdd(tx, testItems, []byte("alice"), []byte("y")) // "al" must not see alice's children
		return IndexRemove(tx, testItems, Itob(1), []byte("b"))
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		parent []byte
		want   string
	}{
		{Itob(1), "[a]"}, {Itob(12), "[c]"}, {[]byte("al"), "[x]"}, {[]byte("alice"), "[y]"}, {Itob(2), "[]"},
	}
	for _, c := range cases {
		db.View(func(tx kv.Tx) error {
			kids, _ := IndexChildren(tx, testItems, c.parent)
			got := "["
			for i, k := range kids {
				if i > 0 {
					got += " "
				}
				got += string(k)
			}
			if got += "]"; got != c.want {
				t.Errorf("children of %q = %s, want %s", c.parent, got, c.want)
			}
			return nil
		})
	}
	_ = fmt.Sprint()
}

// TestIndexedPage: every page of an indexed list, the pages past the end and the huge page that
// means "the last" are what IndexedRecords cut into the same window gives, and the total counts
// only the parent's entries.
func TestIndexedPage(t *testing.T) {
	db := openTemp(t, NoSync)
	const n = 57
	db.Write(func(tx kv.Tx) error {
		for i := 1; i <= n; i++ {
			Put(tx, testCounter, Itob(uint64(i)), item{uint64(i), fmt.Sprint("r", i)})
			IndexAdd(tx, testItems, Itob(7), Itob(uint64(i)))
		}
		Put(tx, testCounter, Itob(1000), item{1000, "other"})
		return IndexAdd(tx, testItems, Itob(8), Itob(1000)) // another parent's entry
	})
	// window is listing.Window's rule: page p of size s, past the end empty, huge = the last.
	window := func(page, size int) func(int) (int, int) {
		return func(total int) (int, int) {
			pages := max(1, (total+size-1)/size)
			p := page
			if p > 1<<40 {
				p = pages
			}
			if p > pages {
				return 0, 0
			}
			return (p - 1) * size, min(p*size, total)
		}
	}
	db.View(func(tx kv.Tx) error {
		all, err := IndexedRecords[item](tx, testItems, Itob(7), testCounter)
		if err != nil || len(all) != n {
			t.Fatal(err, len(all))
		}
		for _, p := range []struct{ page, size int }{{1, 25}, {2, 25}, {3, 25}, {4, 25}, {1, 100}, {1 << 50, 25}, {1, 57}, {2, 57}} {
			got, total, err := IndexedPage[item](tx, testItems, Itob(7), testCounter, window(p.page, p.size))
			from, to := window(p.page, p.size)(n)
			if err != nil || total != n || fmt.Sprint(got) != fmt.Sprint(all[from:to]) {
				t.Errorf("page %d size %d: %v total %d %v, want %v", p.page, p.size, err, total, got, all[from:to])
			}
		}
		if got, total, err := IndexedPage[item](tx, testItems, Itob(9), testCounter, window(1, 25)); err != nil || total != 0 || len(got) != 0 {
			t.Errorf("a parent without entries: %v %d %v", got, total, err)
		}
		return nil
	})
}
