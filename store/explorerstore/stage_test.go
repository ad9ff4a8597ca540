package explorerstore

import (
	"errors"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/internal/testkit/testdb"

	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

// dumpExplorer lists every key of the explorer's product buckets, nested ones included, with
// its value (the product record's import time and the stamp vary, so products and meta stay out).
func dumpExplorer(t *testing.T, db *store.DB) string {
	t.Helper()
	var out strings.Builder
	var walk func(prefix string, b kv.Bucket)
	walk = func(prefix string, b kv.Bucket) {
		_ = b.ForEach(func(k, v []byte) error {
			if v == nil {
				out.WriteString(prefix + "/" + string(k) + "/\n")
				walk(prefix+"/"+string(k), b.Bucket(k))
				return nil
			}
			out.WriteString(prefix + "/" + string(k) + " = " + string(v) + "\n")
			return nil
		})
	}
	_ = db.View(func(tx kv.Tx) error {
		for _, name := range productBuckets {
			b, err := store.Bucket(tx, name)
			if err != nil {
				t.Fatal(err)
			}
			walk(name, b)
		}
		return nil
	})
	return out.String()
}

// TestStagedImport: a product staged over several transactions and moved into place is stored
// exactly as one written in one transaction, first import and re-import alike, and leaves no
// staging bucket behind; an import that stops after staging leaves nothing once DropStaged ran.
func TestStagedImport(t *testing.T) {
	defer func(n int) { stageBatch = n }(stageBatch)
	stageBatch = 3
	p, rpms := product("Test-1.0-x86_64-Build1.1")
	imp := func(db *store.DB, staged bool) {
		t.Helper()
		prep, err := Prepare(p, rpms)
		if err != nil {
			t.Fatal(err)
		}
		if staged {
			if err := Stage(prep, db.Write); err != nil || !prep.staged {
				t.Fatalf("stage: %v (staged %v)", err, prep.staged)
			}
		}
		write(t, db, func(tx kv.Tx) error { _, err := Import(tx, prep, "src", "digest", now); return err })
	}
	one, staged := testdb.Open(t), testdb.Open(t)
	imp(one, false)
	imp(staged, true)
	want := dumpExplorer(t, one)
	if got := dumpExplorer(t, staged); got != want || strings.Contains(got, "staging") {
		t.Fatalf("staged import stored\n%s\nwant\n%s", got, want)
	}
	p.Packages = p.Packages[:2] // a re-import replaces the product staged or not
	imp(one, false)
	imp(staged, true)
	want = dumpExplorer(t, one)
	if got := dumpExplorer(t, staged); got != want {
		t.Fatalf("staged re-import stored\n%s\nwant\n%s", got, want)
	}

	prep, err := Prepare(p, rpms)
	if err != nil {
		t.Fatal(err)
	}
	if err := Stage(prep, staged.Write); err != nil {
		t.Fatal(err)
	}
	if got := dumpExplorer(t, staged); !strings.Contains(got, "staging") {
		t.Fatalf("nothing staged:\n%s", got)
	}
	has := func() (b bool) { _ = staged.View(func(tx kv.Tx) error { b = HasStaged(tx); return nil }); return }
	if !has() {
		t.Fatal("HasStaged: false with a product staged")
	}
	write(t, staged, DropStaged)
	if has() {
		t.Fatal("HasStaged: true after DropStaged")
	}
	if got := dumpExplorer(t, staged); got != want {
		t.Fatalf("after DropStaged\n%s\nwant\n%s", got, want)
	}

	failing := func(fn func(tx kv.Tx) error) error { return errors.New("disk full") }
	prep, _ = Prepare(p, rpms)
	if err := Stage(prep, failing); err == nil || prep.staged {
		t.Fatalf("stage through a failing write: %v, staged %v", err, prep.staged)
	}
}

// TestBasenameKeys: the basename index holds path.Base(f), NUL, f for each distinct storable
// path of the product, made from the exact-path index's buffer.
func TestBasenameKeys(t *testing.T) {
	p, rpms := product("Test-1.0-x86_64-Build1.1")
	rpms = append(rpms, spdx.RPM{Filename: "dirs-1.rpm", Files: []string{"/etc/dir/", "/", "//", "/usr/bin/bash", "/z/a b"}})
	db := testdb.Open(t)
	write(t, db, func(tx kv.Tx) (err error) { _, err = importProduct(tx, p, rpms, "src", "digest", now); return })
	var want []string
	for _, r := range rpms {
		for _, f := range r.Files {
			if r.Filename != "" && f != "" && !strings.Contains(f, "\x00") {
				want = append(want, path.Base(f)+"\x00"+f)
			}
		}
	}
	slices.Sort(want)
	want = slices.Compact(want)
	var got []string
	_ = db.View(func(tx kv.Tx) error {
		return productBucket(tx, store.ExplorerByBasename, p.FullName).ForEach(func(k, _ []byte) error {
			got = append(got, string(k))
			return nil
		})
	})
	if !slices.Equal(got, want) {
		t.Fatalf("basename keys\n%q\nwant\n%q", got, want)
	}
}

// TestSortedPutsOrder: entries sort as their keys do byte by byte (keys shorter than the cached
// prefix, keys holding NULs, keys equal in their first eight bytes), the basename index's made
// keys included, and repeats go.
func TestSortedPutsOrder(t *testing.T) {
	keys := []string{"", "a", "a\x00", "a\x00\x00", "ab", "abcdefgh", "abcdefgh\x00", "abcdefghi", "abcdefgha", "b", "\xff", "a", "abcdefghi"}
	var s sortedPuts
	for _, k := range keys {
		s.buf = append(s.buf, k...)
		s.add(len(k))
	}
	s.sort()
	var got []string
	for _, e := range s.entries {
		got = append(got, string(s.key(e)))
	}
	want := slices.Compact(slices.Sorted(slices.Values(keys)))
	if !slices.Equal(got, want) {
		t.Errorf("sorted %q, want %q", got, want)
	}

	files := []string{"/usr/bin/a", "/a", "/usr/lib/abcdefghij", "/etc/abcdefghi", "/x/", "/", "/b/a", "/usr/bin/a"}
	rpms := []spdx.RPM{{Filename: "r.rpm", Files: files}}
	_, byBase, _ := filePuts(rpms)
	byBase.sort()
	got = nil
	for _, e := range byBase.entries {
		got = append(got, string(byBase.base(e))+"\x00"+string(byBase.key(e)))
	}
	want = nil
	for _, f := range files {
		want = append(want, path.Base(f)+"\x00"+f)
	}
	want = slices.Compact(slices.Sorted(slices.Values(want)))
	if !slices.Equal(got, want) {
		t.Errorf("basename keys sorted %q, want %q", got, want)
	}
}
