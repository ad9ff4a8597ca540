package buildstore

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestTaggingsAndTheirIndex: each object lists only its own taggings, the index finds them by
// tag and by user, a second put of one tagging stays one, and a package's delete drops its
// taggings with their index entries, a project's its own and its packages' — never the
// neighbours' (a project whose name extends another's).
func TestTaggingsAndTheirIndex(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tg := func(user, tag, p, k string) Tagging { return Tagging{Tag: tag, User: user, Project: p, Package: k} }
	all := []Tagging{
		tg("alice", "x", "p", ""), tg("bob", "x", "p", ""), tg("alice", "y", "p", "a"), tg("bob", "x", "p", "b"),
		tg("alice", "x", "p:x", ""), tg("alice", "x", "p:x", "a"), tg("alice", "x", "p", "a"), tg("alice", "x", "p", "a"),
	}
	str := func(list []Tagging, err error) string {
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, x := range list {
			out = append(out, fmt.Sprintf("%s:%s@%s/%s", x.User, x.Tag, x.Project, x.Package))
		}
		return strings.Join(out, " ")
	}
	// indexed is the number of index entries: two per tagging.
	indexed := func(tx kv.Tx) int {
		n := 0
		c := tx.Bucket([]byte(store.BuildTagIndex)).Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			n++
		}
		return n
	}
	err = db.Write(func(tx kv.Tx) error {
		for _, k := range []Package{{Project: "p", Name: "a"}, {Project: "p", Name: "b"}, {Project: "p:x", Name: "a"}} {
			if err := PutPackage(tx, k); err != nil {
				return err
			}
		}
		for _, p := range []string{"p", "p:x"} {
			if err := PutProject(tx, Project{Name: p}); err != nil {
				return err
			}
		}
		for _, x := range all {
			if err := PutTagging(tx, x); err != nil {
				return err
			}
		}
		checks := []struct{ got, want string }{
			{str(TaggingsOn(tx, "p", "")), "alice:x@p/ bob:x@p/"},
			{str(TaggingsOn(tx, "p", "a")), "alice:x@p/a alice:y@p/a"},
			{str(TaggingsOnBy(tx, "bob", "p", "")), "bob:x@p/"},
			{str(TaggingsWithTag(tx, "x")), "alice:x@p/a bob:x@p/b alice:x@p:x/a alice:x@p/ bob:x@p/ alice:x@p:x/"},
			{str(TaggingsBy(tx, "bob")), "bob:x@p/b bob:x@p/"},
			{fmt.Sprint(indexed(tx)), "14"},
		}
		if err := DeletePackage(tx, "p", "b"); err != nil {
			return err
		}
		checks = append(checks, struct{ got, want string }{str(TaggingsBy(tx, "bob")), "bob:x@p/"},
			struct{ got, want string }{fmt.Sprint(indexed(tx)), "12"})
		if err := DeleteProject(tx, "p"); err != nil {
			return err
		}
		checks = append(checks, struct{ got, want string }{str(TaggingsWithTag(tx, "x")), "alice:x@p:x/a alice:x@p:x/"},
			struct{ got, want string }{str(TaggingsBy(tx, "bob")), ""},
			struct{ got, want string }{fmt.Sprint(indexed(tx)), "4"})
		for i, c := range checks {
			if c.got != c.want {
				t.Errorf("check %d: %s, want %s", i, c.got, c.want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
