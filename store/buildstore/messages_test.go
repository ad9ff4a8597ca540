package buildstore

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestMessagesAndTheirIndex: each object lists only its own messages, newest first and within a
// limit; the list of all walks every object newest first; a package's delete drops its messages
// with their index entries, a project's its own and its packages' — never the neighbours' (a
// project whose name extends another's).
func TestMessagesAndTheirIndex(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	objects := [][2]string{{"p", ""}, {"p", "a"}, {"p:x", ""}, {"p", ""}, {"p", "b"}, {"p:x", "a"}, {"p", "a"}, {"q", ""}}
	if err := db.Write(func(tx kv.Tx) error {
		for i, o := range objects {
			id, err := NewMessageID(tx)
			if err != nil {
				return err
			}
			m := Message{ID: id, Project: o[0], Package: o[1], User: "alice", Text: fmt.Sprint(i + 1), Created: time.Unix(int64(i), 0)}
			if err := PutMessage(tx, m); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ids := func(list []Message, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range list {
			out = append(out, fmt.Sprint(m.ID))
		}
		return strings.Join(out, " ")
	}
	check := func(name string, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	all := func(tx kv.Tx, limit int) string {
		return ids(LatestMessages(tx, limit, func(Message) bool { return true }))
	}
	db.View(func(tx kv.Tx) error {
		check("p", ids(MessagesOn(tx, "p", "", -1)), "4 1")
		check("p/a", ids(MessagesOn(tx, "p", "a", -1)), "7 2")
		check("p/a, limit 1", ids(MessagesOn(tx, "p", "a", 1)), "7")
		check("p/a, limit 0", ids(MessagesOn(tx, "p", "a", 0)), "")
		check("p:x", ids(MessagesOn(tx, "p:x", "", -1)), "3")
		check("q, the last key of the index", ids(MessagesOn(tx, "q", "", -1)), "8")
		check("none", ids(MessagesOn(tx, "r", "", -1)), "")
		check("all", all(tx, -1), "8 7 6 5 4 3 2 1")
		check("all, limit 3", all(tx, 3), "8 7 6")
		check("only p's packages", ids(LatestMessages(tx, -1, func(m Message) bool { return m.Project == "p" && m.Package != "" })), "7 5 2")
		return nil
	})
	indexed := func() int {
		n := 0
		db.View(func(tx kv.Tx) error {
			b, _ := store.Bucket(tx, store.BuildMessageIndex)
			return b.ForEach(func(_, _ []byte) error { n++; return nil })
		})
		return n
	}
	if err := db.Write(func(tx kv.Tx) error { return deletePackageMessages(tx, "p", "a") }); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx kv.Tx) error {
		check("after p/a's delete", all(tx, -1), "8 6 5 4 3 1")
		return nil
	})
	if got := indexed(); got != 6 {
		t.Errorf("index entries after p/a's delete: %d", got)
	}
	if err := db.Write(func(tx kv.Tx) error { return deleteProjectMessages(tx, "p") }); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx kv.Tx) error {
		check("after p's delete", all(tx, -1), "8 6 3")
		check("p:x/a stays", ids(MessagesOn(tx, "p:x", "a", -1)), "6")
		return nil
	})
	if got := indexed(); got != 3 {
		t.Errorf("index entries after p's delete: %d", got)
	}
	if err := db.Write(func(tx kv.Tx) error {
		m, err := GetMessage(tx, 6)
		if err != nil {
			return err
		}
		return DeleteMessage(tx, m)
	}); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx kv.Tx) error {
		check("after deleting 6", all(tx, -1), "8 3")
		if _, err := GetMessage(tx, 6); err == nil || !strings.Contains(err.Error(), "Couldn't find Message with 'id'=6") {
			t.Errorf("GetMessage(6) after its delete: %v", err)
		}
		return nil
	})
}

// TestStatusMessagesLiveNewestFirst: the live list skips deleted messages and counts its limit
// in live ones.
func TestStatusMessagesLiveNewestFirst(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	gone := time.Unix(100, 0)
	if err := db.Write(func(tx kv.Tx) error {
		for i := 1; i <= 5; i++ {
			id, err := NewStatusMessageID(tx)
			if err != nil {
				return err
			}
			m := StatusMessage{ID: id, User: "Admin", Text: fmt.Sprint(i)}
			if i == 4 || i == 2 {
				m.Deleted = &gone
			}
			if err := PutStatusMessage(tx, m); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx kv.Tx) error {
		for limit, want := range map[int]string{-1: "5 3 1", 2: "5 3", 0: ""} {
			list, err := LiveStatusMessages(tx, limit)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range list {
				got = append(got, fmt.Sprint(m.ID))
			}
			if strings.Join(got, " ") != want {
				t.Errorf("limit %d: %v, want %s", limit, got, want)
			}
		}
		return nil
	})
}
