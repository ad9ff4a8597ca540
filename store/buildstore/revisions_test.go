package buildstore

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

func TestSrcMD5(t *testing.T) {
	if got := SrcMD5(nil); got != EmptySrcMD5 {
		t.Fatalf("empty tree: %s", got)
	}
	// printf '92eb…  a\n0cc1…  b\n' | md5sum; the input order must not matter.
	files := []FileEntry{{Name: "b", MD5: "0cc175b9c0f1b6a831c399e269772661"}, {Name: "a", MD5: "92eb5ffee6ae2fec3ad71c777531578f"}}
	if got := SrcMD5(files); got != "0beafa48c049842c75377adc4c6c0e1e" {
		t.Fatalf("two files: %s", got)
	}
	if files[0].Name != "b" {
		t.Fatal("SrcMD5 reordered its argument")
	}
}

func TestParseVersion(t *testing.T) {
	cases := map[string]string{
		"Name: x\nVersion: 2.0\n":                 "2.0",
		"Name: x\nversion:\t1.2.3 \nVersion: 9\n": "1.2.3",
		"Name: x\nRelease: 0\n":                   "unknown",
		"Version:\nVersion: 3\n":                  "3",
		"":                                        "unknown",
	}
	for spec, want := range cases {
		if got := ParseVersion([]byte(spec)); got != want {
			t.Errorf("%q: %q, want %q", spec, got, want)
		}
	}
}

func TestNextVRev(t *testing.T) {
	h := []Revision{{VRev: 1, Version: "1.0"}, {VRev: 2, Version: "1.0"}, {VRev: 1, Version: "1.1"}}
	for version, want := range map[string]uint64{"1.1": 2, "2.0": 1, "1.0": 3} {
		if got := NextVRev(h, version); got != want {
			t.Errorf("%s: vrev %d, want %d", version, got, want)
		}
	}
	if NextVRev(nil, "1.0") != 1 {
		t.Error("first revision: vrev must be 1")
	}
}

// TestCommit: revisions count up, vrev restarts with a new version, unchanged files keep their
// mtime, and deleting the package removes its history.
func TestCommit(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	t0 := time.Unix(1_800_000_000, 0)
	err = db.Write(func(tx kv.Tx) error {
		spec1, _ := PutBlob(tx, []byte("Version: 1.0\n"))
		spec2, _ := PutBlob(tx, []byte("Version: 2.0\n"))
		src, _ := PutBlob(tx, []byte("hello\n"))
		steps := []struct {
			files    []FileEntry
			vrev     uint64
			version  string
			srcMTime int64
		}{
			{[]FileEntry{{Name: "x.spec", MD5: spec1}, {Name: "src", MD5: src}}, 1, "1.0", t0.Unix()},
			{[]FileEntry{{Name: "x.spec", MD5: spec1}, {Name: "src", MD5: src}}, 2, "1.0", t0.Unix()},
			{[]FileEntry{{Name: "x.spec", MD5: spec2}, {Name: "src", MD5: src}}, 1, "2.0", t0.Unix()},
		}
		for i, s := range steps {
			r, err := AppendRevision(tx, "P", "K", s.files, Revision{User: "alice", Comment: "c"}, t0.Add(time.Duration(i)*time.Hour))
			if err != nil {
				return err
			}
			src, _ := r.File("src")
			if r.Rev != uint64(i+1) || r.VRev != s.vrev || r.Version != s.version || src.MTime != s.srcMTime || src.Size != 6 {
				t.Errorf("step %d: %+v", i, r)
			}
			if r.SrcMD5 != SrcMD5(r.Files) || r.Files[0].Name != "src" {
				t.Errorf("step %d: tree %+v", i, r.Files)
			}
		}
		if _, err := AppendRevision(tx, "P", "K", []FileEntry{{Name: "y", MD5: EmptySrcMD5}}, Revision{User: "alice"}, t0); err == nil {
			t.Error("a commit of content that was never uploaded")
		}
		if err := DeleteRevisions(tx, "P", "K"); err != nil {
			return err
		}
		if _, ok, _ := LatestRevision(tx, "P", "K"); ok {
			t.Error("history left after DeleteRevisions")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
