package explorerstore

import (
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/testdb"

	"github.com/pocketforge/pocketforge/store/kv"
)

// TestStamp: a new store has no stamp; every import and removal writes a new one with the
// generation it raises, and a removal of nothing writes none.
func TestStamp(t *testing.T) {
	db := testdb.Open(t)
	stamp := func() uint64 {
		var s uint64
		db.View(func(tx kv.Tx) error { s = Stamp(tx); return nil })
		return s
	}
	if s := stamp(); s != 0 {
		t.Fatalf("a new store's stamp is %d, want 0", s)
	}
	seen := map[uint64]bool{0: true}
	p, rpms := product("Test-1.0-x86_64-Build1.1")
	for i, step := range []func(tx kv.Tx) error{
		func(tx kv.Tx) error { _, err := importProduct(tx, p, rpms, "a", "d1", now); return err },
		func(tx kv.Tx) error { _, err := importProduct(tx, p, rpms, "a", "d2", now); return err },
		func(tx kv.Tx) error { _, err := Remove(tx, p.FullName); return err },
	} {
		write(t, db, step)
		if s := stamp(); seen[s] {
			t.Fatalf("step %d left stamp %d, seen before", i, s)
		} else {
			seen[s] = true
		}
	}
	before := stamp()
	write(t, db, func(tx kv.Tx) error { _, err := Remove(tx, "no-such-product"); return err })
	if stamp() != before {
		t.Errorf("removing nothing changed the stamp")
	}
}
