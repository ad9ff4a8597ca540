package buildstore

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestCommentsDieWithTheirObject: each object lists only its own comments, in id order; a
// package's delete drops its comments, a project's drops its own and its packages', and the
// neighbours' (a project whose name extends another's, a request) stay.
func TestCommentsDieWithTheirObject(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pkg := func(p, k string) CommentObject { return CommentObject{Kind: CommentOnPackage, Project: p, Package: k} }
	prj := func(p string) CommentObject { return CommentObject{Kind: CommentOnProject, Project: p} }
	req := CommentObject{Kind: CommentOnRequest, Request: "7"}
	objects := []CommentObject{pkg("p", "a"), pkg("p", "b"), prj("p"), pkg("p:x", "a"), prj("p:x"), req, pkg("p", "a")}
	count := func(tx kv.Tx) string {
		var out []int
		for _, o := range objects[:6] {
			list, err := Comments(tx, o)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, len(list))
		}
		return fmt.Sprint(out)
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
		for i, o := range objects {
			id, err := NewCommentID(tx)
			if err != nil {
				return err
			}
			if err := PutComment(tx, Comment{ID: id, On: o, Who: "bob", Body: fmt.Sprint("c", i)}); err != nil {
				return err
			}
		}
		list, _ := Comments(tx, pkg("p", "a"))
		if len(list) != 2 || list[0].Body != "c0" || list[1].Body != "c6" {
			t.Errorf("p/a: %+v", list)
		}
		if got := count(tx); got != "[2 1 1 1 1 1]" {
			t.Errorf("before: %s", got)
		}
		if err := DeletePackage(tx, "p", "b"); err != nil {
			return err
		}
		if got := count(tx); got != "[2 0 1 1 1 1]" {
			t.Errorf("after deleting p/b: %s", got)
		}
		if err := DeleteProject(tx, "p"); err != nil {
			return err
		}
		if got := count(tx); got != "[0 0 0 1 1 1]" {
			t.Errorf("after deleting p: %s", got)
		}
		if _, err := GetComment(tx, 1); err == nil {
			t.Error("comment 1 is still there")
		}
		c, err := GetComment(tx, 6)
		if err != nil || c.On != req {
			t.Errorf("request comment: %+v %v", c, err)
		}
		return DeleteComment(tx, c)
	})
	if err != nil {
		t.Fatal(err)
	}
	db.View(func(tx kv.Tx) error {
		if got := count(tx); got != "[0 0 0 1 1 0]" {
			t.Errorf("after deleting the request's: %s", got)
		}
		return nil
	})
}
