package store

import (
	"errors"
	"testing"

	"github.com/pocketforge/pocketforge/store/kv"
)

func TestMemo(t *testing.T) {
	db := openTemp(t, NoSync)
	memo := NewMemo[string, string](db)
	loads := 0
	load := func(tx kv.Tx) (string, error) {
		loads++
		v, err := Get[string](tx, testItems, []byte("k"))
		if errors.Is(err, ErrNotFound) {
			return "", err
		}
		return v, err
	}
	if _, err := memo.Get("k", load); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing: %v", err)
	}
	db.Write(func(tx kv.Tx) error { return Put(tx, testItems, []byte("k"), "one") })
	for i := 0; i < 3; i++ {
		if v, _ := memo.Get("k", load); v != "one" {
			t.Fatalf("got %q", v)
		}
	}
	if loads != 2 {
		t.Fatalf("%d loads, want 2 (errors are not cached; hits do not load)", loads)
	}
	db.Write(func(tx kv.Tx) error { return Put(tx, testItems, []byte("k"), "two") })
	if v, _ := memo.Get("k", load); v != "two" {
		t.Fatalf("stale after a write: %q", v)
	}
	db.Write(func(tx kv.Tx) error { return errors.New("rolled back") })
	if v, _ := memo.Get("k", load); v != "two" || loads != 3 {
		t.Fatalf("a failed write must not invalidate: %q, %d loads", v, loads)
	}
	db.Exclusive(Reset)
	if _, err := memo.Get("k", load); !errors.Is(err, ErrNotFound) {
		t.Fatal("stale after a reset")
	}
}

// TestMemoBounded: keys a caller chooses (project names, tokens) cannot grow a memo past
// maxMemoEntries between two writes.
func TestMemoBounded(t *testing.T) {
	db := openTemp(t, NoSync)
	memo := NewMemo[int, int](db)
	for i := range 3 * maxMemoEntries {
		if v, _ := memo.Get(i, func(kv.Tx) (int, error) { return i, nil }); v != i {
			t.Fatalf("got %d for %d", v, i)
		}
	}
	if n := len(memo.m); n > maxMemoEntries {
		t.Fatalf("%d entries, bound %d", n, maxMemoEntries)
	}
}
