package store

import (
	"fmt"
	"testing"

	"go.etcd.io/bbolt"
)

func TestIndex(t *testing.T) {
	db := openTemp(t, NoSync)
	err := db.Write(func(tx *bbolt.Tx) error {
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
		db.View(func(tx *bbolt.Tx) error {
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
