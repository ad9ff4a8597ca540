package buildsvc

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

var (
	alice = buildstore.Person{Login: "alice"}
	bob   = buildstore.Person{Login: "bob"}
)

// newSourceWorld is a service over a store with project P, maintained by alice, and its
// empty package k.
func newSourceWorld(t *testing.T, opts Options) (*Service, *clock.Fixed) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	err = db.Write(func(tx kv.Tx) error {
		for _, p := range []buildstore.Person{alice, bob} {
			if err := buildstore.PutPerson(tx, p); err != nil {
				return err
			}
		}
		p := buildstore.Project{Name: "P", Persons: []buildstore.Role{{ID: "alice", Role: buildstore.RoleMaintainer}}}
		if err := buildstore.PutProject(tx, p); err != nil {
			return err
		}
		return buildstore.PutPackage(tx, buildstore.Package{Project: "P", Name: "k"})
	})
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFixed(time.Unix(1_800_000_000, 0))
	return New(db, clk, nil, opts), clk
}

// wantFault checks err is a fault of kind with code.
func wantFault(t *testing.T, what string, err error, kind error, code string) {
	t.Helper()
	if !errors.Is(err, kind) || fault.Code(err) != code {
		t.Fatalf("%s: got %v (code %q), want %v %s", what, err, fault.Code(err), kind, code)
	}
}

// TestCommitChanges: every way to write sources is one Commit — a file list (content missing
// first), a PUT, a DELETE and the upload revision — each a revision by who with its comment.
func TestCommitChanges(t *testing.T) {
	s, _ := newSourceWorld(t, Options{FileLimit: 64})
	spec := []byte("Name: k\nVersion: 2\n")
	list := FileList([]buildstore.FileEntry{{Name: "k.spec", MD5: buildstore.MD5Hex(spec)}})

	done, err := s.Commit(alice, "P", "k", list, CommitOptions{Listing: true})
	if err != nil || len(done.Missing) != 1 || done.Missing[0].Name != "k.spec" || done.Revision.Rev != 0 {
		t.Fatalf("missing content: %+v %v", done, err)
	}
	if err := s.UploadBlob(alice, "P", "k", "k.spec", spec); err != nil {
		t.Fatal(err)
	}
	done, err = s.Commit(alice, "P", "k", list, CommitOptions{Comment: "first", Listing: true})
	if err != nil || done.Revision.Rev != 1 || done.Revision.Comment != "first" || done.Revision.User != "alice" ||
		done.Revision.Version != "2" || done.View.Tree.SrcMD5 != done.Revision.SrcMD5 {
		t.Fatalf("file list: %+v %v", done, err)
	}
	done, err = s.Commit(alice, "P", "k", PutFile("a", []byte("a\n")), CommitOptions{})
	if err != nil || done.Revision.Rev != 2 || len(done.Revision.Files) != 2 || done.View.Tree.SrcMD5 != "" {
		t.Fatalf("put: %+v %v", done, err)
	}
	done, err = s.Commit(alice, "P", "k", DeleteFile("a"), CommitOptions{})
	if err != nil || done.Revision.Rev != 3 || len(done.Revision.Files) != 1 {
		t.Fatalf("delete: %+v %v", done, err)
	}
	if err := s.AddUpload(alice, "P", "k", "b", []byte("b\n")); err != nil {
		t.Fatal(err)
	}
	done, err = s.Commit(alice, "P", "k", UploadRevision(), CommitOptions{Listing: true})
	if err != nil || done.Revision.Rev != 4 || len(done.View.Tree.Files) != 2 {
		t.Fatalf("upload revision: %+v %v", done, err)
	}
	if v, err := s.Listing(alice, "P", "k", TreeOptions{}); err != nil || v.Tree.Rev != 4 {
		t.Fatalf("the upload is gone: %+v %v", v.Tree, err)
	}
	history, err := s.History(bob, "P", "k")
	if err != nil || len(history) != 4 {
		t.Fatalf("history: %d %v", len(history), err)
	}
}

// TestCommitRefusals: who may not write, what is not a file, what is too large, a broken _link.
func TestCommitRefusals(t *testing.T) {
	s, _ := newSourceWorld(t, Options{FileLimit: 16})
	_, err := s.Commit(bob, "P", "k", PutFile("a", nil), CommitOptions{})
	wantFault(t, "bob puts", err, store.ErrForbidden, "put_file_no_permission")
	_, err = s.Commit(bob, "P", "k", DeleteFile("a"), CommitOptions{})
	wantFault(t, "bob deletes", err, store.ErrForbidden, "delete_file_no_permission")
	wantFault(t, "bob uploads", s.UploadBlob(bob, "P", "k", "a", nil), store.ErrForbidden, "put_file_no_permission")
	wantFault(t, "bob discards the upload", s.DiscardUpload(bob, "P", "k"), store.ErrForbidden, "delete_file_no_permission")
	_, err = s.Commit(alice, "P", "k", PutFile("big", make([]byte, 17)), CommitOptions{})
	wantFault(t, "over the limit", err, store.ErrTooLarge, "file_too_large")
	wantFault(t, "upload over the limit", s.AddUpload(alice, "P", "k", "big", make([]byte, 17)), store.ErrTooLarge, "file_too_large")
	_, err = s.Commit(alice, "P", "k", PutFile("a/b", nil), CommitOptions{})
	wantFault(t, "a bad name", err, store.ErrInvalid, "invalid_filename")
	_, err = s.Commit(alice, "P", "k", FileList([]buildstore.FileEntry{{Name: "a", MD5: "zz"}}), CommitOptions{})
	wantFault(t, "a bad md5", err, store.ErrInvalid, "invalid_xml")
	_, err = s.Commit(alice, "P", "k", PutFile(buildstore.LinkFile, []byte("<nolink/>")), CommitOptions{})
	wantFault(t, "a broken _link", err, store.ErrInvalid, "validation_failed")
	_, err = s.Commit(alice, "P", "k", DeleteFile("a"), CommitOptions{})
	wantFault(t, "deleting a missing file", err, store.ErrNotFound, "404")
	_, err = s.Commit(alice, "P", "nope", PutFile("a", nil), CommitOptions{})
	wantFault(t, "a missing package", err, store.ErrNotFound, "unknown_package")
}

// TestSweepBlobs: an upload never committed is removed after the grace period; a committed one
// stays.
func TestSweepBlobs(t *testing.T) {
	s, clk := newSourceWorld(t, Options{})
	kept, lost := []byte("kept\n"), []byte("lost\n")
	for _, data := range [][]byte{kept, lost} {
		if err := s.UploadBlob(alice, "P", "k", "f", data); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Commit(alice, "P", "k", FileList([]buildstore.FileEntry{{Name: "f", MD5: buildstore.MD5Hex(kept)}}), CommitOptions{}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(buildstore.PendingGrace + time.Minute)
	if err := s.SweepBlobs(clk.Now()); err != nil {
		t.Fatal(err)
	}
	_ = s.db.View(func(tx kv.Tx) error {
		if !buildstore.HasBlob(tx, buildstore.MD5Hex(kept)) || buildstore.HasBlob(tx, buildstore.MD5Hex(lost)) {
			t.Fatal("the sweep kept the wrong blobs")
		}
		return nil
	})
}
