package explorerstore

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/internal/testkit/testdb"

	"github.com/pocketforge/pocketforge/spdx"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/kv"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func pkg(name, arch, version, org, repo, branch, commit string) spdx.Package {
	p := spdx.Package{Name: name, Arch: arch, Version: version, Filename: name + "-" + version + "." + arch + ".rpm"}
	if repo != "" {
		p.VCSURL, p.VCSOrg, p.VCSRepo, p.TrackingBranch, p.CommitHash = "https://src.test/"+org+"/"+repo, org, repo, branch, commit
	}
	return p
}

// product is a small product: bash and bash-sh from one commit, Vim (mixed case), a package
// without a git reference, and the file lists of their RPMs.
func product(full string) (spdx.Product, []spdx.RPM) {
	p := spdx.Product{FullName: full, Name: "Test", Version: "1.0", Arch: "x86_64", BuildNumber: "Build1.1", Packages: []spdx.Package{
		pkg("bash", "x86_64", "5.2-1.1", "pool", "bash", "main", "aaaaaaaa11111111"),
		pkg("bash-sh", "noarch", "5.2-1.1", "pool", "bash", "main", "aaaaaaaa11111111"),
		pkg("Vim", "x86_64", "9.1-2.1", "Pool", "Vim", "Main", "BBBBBBBB22222222"),
		pkg("legacy", "x86_64", "1.0-1.1", "", "", "", ""),
	}}
	rpms := []spdx.RPM{
		{Filename: "bash-5.2-1.1.x86_64.rpm", Files: []string{"/usr/bin/bash", "/usr/share/doc/bash/README", "/usr/bin/bash", ""}},
		{Filename: "bash-sh-5.2-1.1.noarch.rpm", Files: []string{"/bin/sh", "/usr/bin/sh"}},
		{Filename: "Vim-9.1-2.1.x86_64.rpm", Files: []string{"/usr/bin/vim", "/usr/share/doc/vim/README", "bad\x00file"}},
		{Filename: "orphan-1.0.x86_64.rpm", Files: []string{"/usr/bin/orphan"}}, // no package ships it
		{Filename: "", Files: []string{"/nowhere"}},
	}
	return p, rpms
}

func write(t *testing.T, db *store.DB, fn func(tx kv.Tx) error) {
	t.Helper()
	if err := db.Write(fn); err != nil {
		t.Fatal(err)
	}
}

func TestImportLookups(t *testing.T) {
	db := testdb.Open(t)
	p, rpms := product("Test-1.0-x86_64-Build1.1")
	var ch Change
	write(t, db, func(tx kv.Tx) (err error) {
		ch, err = importProduct(tx, p, rpms, "/src/test.spdx.json", "digest", now)
		return
	})
	if ch.Generation != 1 || ch.OldNames != nil || !slices.Equal(ch.NewNames, []string{"bash", "bash-sh", "legacy", "vim"}) ||
		!slices.Equal(ch.NewVCS, []string{"pool\x00bash\x00main\x00aaaaaaaa11111111", "pool\x00vim\x00main\x00bbbbbbbb22222222"}) {
		t.Fatalf("change %+v", ch)
	}
	db.View(func(tx kv.Tx) error {
		rec, err := GetProduct(tx, p.FullName)
		if err != nil || rec.Packages != 4 || rec.RPMs != 5 || rec.Files != 7 || rec.Source != "/src/test.spdx.json" || !rec.Imported.Equal(now) {
			t.Errorf("product %+v, %v", rec, err)
		}
		refs := func(name string, got []Ref, err error, want ...uint32) {
			t.Helper()
			var seqs []uint32
			for _, r := range got {
				if r.Product != p.FullName {
					t.Errorf("%s: ref of %s", name, r.Product)
				}
				seqs = append(seqs, r.Seq)
			}
			if err != nil || !slices.Equal(seqs, want) {
				t.Errorf("%s: %v %v, want %v", name, seqs, err, want)
			}
		}
		cases := []struct {
			name string
			got  func() ([]Ref, error)
			want []uint32
		}{
			{"by name", func() ([]Ref, error) { return ByName(tx, "bash") }, []uint32{0}},
			{"by name: lower-cased key", func() ([]Ref, error) { return ByName(tx, "vim") }, []uint32{2}},
			{"by name: the case of the record is no key", func() ([]Ref, error) { return ByName(tx, "Vim") }, nil},
			{"by name: a prefix is no key", func() ([]Ref, error) { return ByName(tx, "bas") }, nil},
			{"by git tuple: two packages", func() ([]Ref, error) { return ByVCS(tx, "pool\x00bash\x00main\x00aaaaaaaa11111111") }, []uint32{0, 1}},
			{"by RPM", func() ([]Ref, error) { return ByRPM(tx, p.FullName, "bash-sh-5.2-1.1.noarch.rpm") }, []uint32{1}},
			{"by RPM: none ships it", func() ([]Ref, error) { return ByRPM(tx, p.FullName, "orphan-1.0.x86_64.rpm") }, nil},
			{"by RPM: unknown product", func() ([]Ref, error) { return ByRPM(tx, "nope", "bash-5.2-1.1.x86_64.rpm") }, nil},
		}
		for _, c := range cases {
			got, err := c.got()
			refs(c.name, got, err, c.want...)
		}
		if pk, err := GetPackage(tx, Ref{Product: p.FullName, Seq: 2}); err != nil || pk.Name != "Vim" || pk.VCSOrg != "Pool" {
			t.Errorf("GetPackage: %+v %v", pk, err)
		}
		if _, err := GetPackage(tx, Ref{Product: p.FullName, Seq: 9}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("GetPackage of no package: %v", err)
		}
		if !HasKey(tx, store.ExplorerByName, "legacy") || HasKey(tx, store.ExplorerByName, "leg") {
			t.Errorf("HasKey")
		}
		var keys []string
		EachKey(tx, store.ExplorerByName, func(k string) error { keys = append(keys, k); return nil })
		if !slices.Equal(keys, []string{"bash", "bash-sh", "legacy", "vim"}) {
			t.Errorf("EachKey: %v", keys)
		}
		return nil
	})
}

func TestFiles(t *testing.T) {
	db := testdb.Open(t)
	a, rpms := product("A-1.0-x86_64-Build1.1")
	b, _ := product("B-1.0-x86_64-Build1.1")
	write(t, db, func(tx kv.Tx) error {
		if _, err := importProduct(tx, a, rpms, "a", "1", now); err != nil {
			return err
		}
		_, err := importProduct(tx, b, rpms[:1], "b", "2", now)
		return err
	})
	cases := []struct {
		name, q string
		want    []FileHit
	}{
		{"a full path in two products", "/usr/bin/bash", []FileHit{
			{"/usr/bin/bash", "A-1.0-x86_64-Build1.1", "bash-5.2-1.1.x86_64.rpm"},
			{"/usr/bin/bash", "B-1.0-x86_64-Build1.1", "bash-5.2-1.1.x86_64.rpm"}}},
		{"a basename in two directories", "README", []FileHit{
			{"/usr/share/doc/bash/README", "A-1.0-x86_64-Build1.1", "bash-5.2-1.1.x86_64.rpm"},
			{"/usr/share/doc/vim/README", "A-1.0-x86_64-Build1.1", "Vim-9.1-2.1.x86_64.rpm"},
			{"/usr/share/doc/bash/README", "B-1.0-x86_64-Build1.1", "bash-5.2-1.1.x86_64.rpm"}}},
		{"a basename of two paths", "sh", []FileHit{
			{"/bin/sh", "A-1.0-x86_64-Build1.1", "bash-sh-5.2-1.1.noarch.rpm"},
			{"/usr/bin/sh", "A-1.0-x86_64-Build1.1", "bash-sh-5.2-1.1.noarch.rpm"}}},
		{"a file of an RPM no package names", "/usr/bin/orphan", []FileHit{
			{"/usr/bin/orphan", "A-1.0-x86_64-Build1.1", "orphan-1.0.x86_64.rpm"}}},
		{"a prefix is no path", "/usr/bin/ba", nil},
		{"a directory is no path", "/usr/bin", nil},
		{"a prefix is no basename", "bas", nil},
		{"an RPM without a file name is skipped", "/nowhere", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []FileHit
			db.View(func(tx kv.Tx) (err error) { got, err = Files(tx, c.q); return })
			if !slices.Equal(got, c.want) {
				t.Errorf("Files(%q) = %v, want %v", c.q, got, c.want)
			}
		})
	}
}

func TestReplaceAndRemove(t *testing.T) {
	db := testdb.Open(t)
	p, rpms := product("Test-1.0-x86_64-Build1.1")
	write(t, db, func(tx kv.Tx) error { _, err := importProduct(tx, p, rpms, "s", "1", now); return err })
	smaller := p
	smaller.Packages = p.Packages[:1]
	var ch Change
	write(t, db, func(tx kv.Tx) (err error) { ch, err = importProduct(tx, smaller, rpms[:1], "s", "2", now); return })
	if ch.Generation != 2 || len(ch.OldNames) != 4 || !slices.Equal(ch.NewNames, []string{"bash"}) {
		t.Fatalf("replace: %+v", ch)
	}
	db.View(func(tx kv.Tx) error {
		if refs, _ := ByName(tx, "vim"); len(refs) != 0 {
			t.Errorf("vim survived the replacement")
		}
		if hits, _ := Files(tx, "vim"); len(hits) != 0 {
			t.Errorf("vim's files survived the replacement: %v", hits)
		}
		if refs, _ := ByName(tx, "bash"); len(refs) != 1 {
			t.Errorf("bash: %v", refs)
		}
		return nil
	})
	cases := []struct {
		name     string
		full     string
		wantGen  uint64
		wantOld  []string
		products int
	}{
		{"an unknown product: an empty change", "Nope", 0, nil, 1},
		{"the product", p.FullName, 3, []string{"bash"}, 0},
		{"again: an empty change", p.FullName, 0, nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ch Change
			write(t, db, func(tx kv.Tx) (err error) { ch, err = Remove(tx, c.full); return })
			if ch.Generation != c.wantGen || !slices.Equal(ch.OldNames, c.wantOld) {
				t.Errorf("change %+v", ch)
			}
			db.View(func(tx kv.Tx) error {
				list, _ := Products(tx)
				if len(list) != c.products {
					t.Errorf("%d products", len(list))
				}
				for _, b := range productBuckets {
					if productBucket(tx, b, p.FullName) != nil && c.products == 0 {
						t.Errorf("%s still has the product's bucket", b)
					}
				}
				return nil
			})
		})
	}
	db.View(func(tx kv.Tx) error {
		if g := Generation(tx); g != 3 {
			t.Errorf("generation %d", g)
		}
		return nil
	})
}

func TestImportRefusesBadNames(t *testing.T) {
	for _, name := range []string{"", "a\x00b"} {
		t.Run("name "+name, func(t *testing.T) {
			db := testdb.Open(t)
			p, rpms := product(name)
			err := db.Write(func(tx kv.Tx) error { _, err := importProduct(tx, p, rpms, "s", "1", now); return err })
			if !errors.Is(err, store.ErrInvalid) {
				t.Fatalf("Import(%q): %v", name, err)
			}
		})
	}
}

func TestVCSKey(t *testing.T) {
	cases := []struct {
		name string
		p    Package
		key  string
	}{
		{"every part, lower-cased", Package{VCSURL: "u", VCSOrg: "Pool", VCSRepo: "Bash", TrackingBranch: "Main", CommitHash: "ABC"}, "pool\x00bash\x00main\x00abc"},
		{"no branch", Package{VCSURL: "u", VCSOrg: "pool", VCSRepo: "bash", CommitHash: "abc"}, "pool\x00bash\x00\x00abc"},
		{"no git reference: no key", Package{Name: "legacy"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := VCSKey(c.p); got != c.key {
				t.Fatalf("VCSKey = %q, want %q", got, c.key)
			}
			if c.key == "" {
				return
			}
			org, repo, branch, commit := SplitVCSKey(c.key)
			if org+"\x00"+repo+"\x00"+branch+"\x00"+commit != c.key {
				t.Errorf("SplitVCSKey(%q) = %q %q %q %q", c.key, org, repo, branch, commit)
			}
		})
	}
	if org, repo, branch, commit := SplitVCSKey("only"); org != "only" || repo != "" || branch != "" || commit != "" {
		t.Errorf("SplitVCSKey of a short key: %q %q %q %q", org, repo, branch, commit)
	}
}

// importProduct prepares and imports p, as explorersvc does in two steps.
func importProduct(tx kv.Tx, p spdx.Product, rpms []spdx.RPM, source, digest string, now time.Time) (Change, error) {
	prep, err := Prepare(p, rpms)
	if err != nil {
		return Change{}, err
	}
	return Import(tx, prep, source, digest, now)
}
