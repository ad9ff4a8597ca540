package outbox

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

func TestOutbox(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	db.Write(func(tx kv.Tx) error {
		for _, to := range []string{"a@example.com", "b@example.com", "a@example.com"} {
			if err := Send(tx, &Mail{Time: now, API: "cloud", To: []string{to}, Subject: "hi " + to}); err != nil {
				return err
			}
		}
		return nil
	})
	cases := []struct {
		name, to string
		limit    int
		want     []uint64
	}{
		{"all newest first", "", 0, []uint64{3, 2, 1}},
		{"by address", "a@example.com", 0, []uint64{3, 1}},
		{"limit", "", 1, []uint64{3}},
		{"nobody", "z@example.com", 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db.View(func(tx kv.Tx) error {
				got, err := List(tx, c.to, c.limit)
				if err != nil || len(got) != len(c.want) {
					t.Fatalf("got %v, %v", got, err)
				}
				for i, m := range got {
					if m.ID != c.want[i] {
						t.Fatalf("ids %v, want %v", got, c.want)
					}
				}
				return nil
			})
		})
	}
	db.Write(Clear)
	db.Write(func(tx kv.Tx) error {
		m := &Mail{To: []string{"x"}}
		Send(tx, m)
		if m.ID != 4 {
			t.Fatalf("id reused after clear: %d", m.ID)
		}
		return nil
	})
}
