package search

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pocketforge/pocketforge/buildsvc"

	"github.com/pocketforge/pocketforge/clock"
	"github.com/pocketforge/pocketforge/fault"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/buildstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// binarySearchWorld is a service over a store that holds, without a farm: project pub
// (repository standard, x86_64, building against base/standard) with a published tree of
// hello (binary and source RPM) and a noarch doc, the binaries behind them, a pattern, and a
// release target upd/update holding a released hello; and pub:hidden, hidden from all but
// alice, with a published secret and a pattern of its own.
func binarySearchWorld(t *testing.T) *Service {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "d.db"), store.Options{Durability: store.NoSync})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	x86 := []string{"x86_64"}
	err = db.Write(func(tx kv.Tx) error {
		projects := []buildstore.Project{
			{Name: "base", Repositories: []buildstore.Repository{{Name: "standard", Archs: x86}}},
			{Name: "pub", Repositories: []buildstore.Repository{{Name: "standard", Archs: x86,
				Paths:         []buildstore.Path{{Project: "base", Repository: "standard"}},
				ReleaseTarget: &buildstore.ReleaseTarget{Project: "upd", Repository: "update", Trigger: "manual"}}}},
			{Name: "upd", Repositories: []buildstore.Repository{{Name: "update", Archs: x86}}},
			{Name: "pub:hidden", Persons: []buildstore.Role{{ID: "alice", Role: "maintainer"}},
				Flags:        []buildstore.Flag{{Name: "access", Status: "disable"}},
				Repositories: []buildstore.Repository{{Name: "standard", Archs: x86}}},
		}
		for _, p := range projects {
			if err := buildstore.PutProject(tx, p); err != nil {
				return err
			}
		}
		for _, f := range []struct{ project, pkg, dir, name, version, release, arch string }{
			{"pub", "hello", "x86_64", "hello", "1.0", "1.1", "x86_64"},
			{"pub", "hello", "src", "hello", "1.0", "1.1", "src"},
			{"pub", "docs", "noarch", "doc", "2.0", "3", "noarch"},
			{"pub:hidden", "secret", "x86_64", "secret", "1.0", "1.1", "x86_64"},
			{"upd", "hello", "x86_64", "hello", "1.0", "1.1", "x86_64"},
		} {
			file := f.name + "-" + f.version + "-" + f.release + "." + f.arch + ".rpm"
			repo := "standard"
			if f.project == "upd" {
				repo = "update"
			}
			w := buildstore.Where{Project: f.project, Repository: repo, Arch: "x86_64"}
			b := buildstore.Binary{Package: f.pkg, Filename: file, Name: f.name, Version: f.version, Release: f.release, Arch: f.arch}
			if err := buildstore.PutBinary(tx, w, b, []byte("not an rpm")); err != nil {
				return err
			}
			if f.project != "upd" {
				if err := buildstore.PutPublished(tx, f.project, repo, f.dir+"/"+file, []byte("rpm")); err != nil {
					return err
				}
			}
		}
		if err := buildstore.PutPublished(tx, "pub", "standard", "repodata/repomd.xml", []byte("<repomd/>")); err != nil {
			return err
		}
		for _, p := range []struct{ project, file, doc string }{
			{"pub", "devtools.xml", `<pattern xmlns="http://novell.com/package/metadata/suse/pattern"><name>devtools</name><summary>Developer tools</summary><description>Compilers</description></pattern>`},
			{"pub", "unnamed.xml", `<pattern/>`},
			{"pub:hidden", "secrets.xml", `<pattern><name>secrets</name></pattern>`},
		} {
			if err := buildstore.PutPattern(tx, p.project, buildstore.Pattern{Name: p.file, Data: []byte(p.doc)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return New(buildsvc.New(db, clock.Real{}, nil, buildsvc.Options{}), db)
}

var (
	searchBob   = buildstore.Person{Login: "bob"}
	searchAlice = buildstore.Person{Login: "alice"}
)

// TestSearchPublishedBinaries: the records, their order, the keys osc sends (--binaryversion,
// --baseproject), read protection and paging.
func TestSearchPublishedBinaries(t *testing.T) {
	s := binarySearchWorld(t)
	files := func(who buildstore.Person, match string, page Page) (int, []string) {
		t.Helper()
		found, err := s.SearchPublishedBinaries(who, match, page)
		if err != nil {
			t.Fatalf("%s: %v", match, err)
		}
		var out []string
		for _, b := range found.Records {
			out = append(out, b.Filepath)
		}
		return found.Matches, out
	}
	hello := []string{"pub/standard/src/hello-1.0-1.1.src.rpm", "pub/standard/x86_64/hello-1.0-1.1.x86_64.rpm"}
	for _, c := range []struct {
		match string
		who   buildstore.Person
		want  []string
	}{
		{"@name = 'hello'", searchBob, hello},
		{"contains(@name, 'ELL')", searchBob, hello},
		{"@name='hello' and @versrel='1.0-1.1'", searchBob, hello},
		{"@name='hello' and @version='1.0' and @release='1.1'", searchBob, hello},
		{"@name='hello' and path/@project='base'", searchBob, hello},
		{"@name='hello' and path/@project='elsewhere'", searchBob, nil},
		{"@name='hello' and @arch='x86_64'", searchBob, hello[1:]},
		{"@package='docs'", searchBob, []string{"pub/standard/noarch/doc-2.0-3.noarch.rpm"}},
		{"@baseproject='base' and @type='rpm'", searchBob, append([]string{"pub/standard/noarch/doc-2.0-3.noarch.rpm"}, hello...)},
		{"@filename='hello-1.0-1.1.src.rpm'", searchBob, hello[:1]},
		{"@name='secret'", searchBob, nil},
		{"@name='secret'", searchAlice, []string{"pub:/hidden/standard/x86_64/secret-1.0-1.1.x86_64.rpm"}},
		{"", searchBob, append([]string{"pub/standard/noarch/doc-2.0-3.noarch.rpm"}, hello...)},
	} {
		if n, got := files(c.who, c.match, Page{}); n != len(c.want) || !slices.Equal(got, c.want) {
			t.Errorf("%s as %s: %d %v, want %v", c.match, c.who.Login, n, got, c.want)
		}
	}
	found, _ := s.SearchPublishedBinaries(searchBob, "@name='hello' and @arch='x86_64'", Page{})
	want := PublishedBinary{Name: "hello", Version: "1.0", Release: "1.1", Arch: "x86_64", Project: "pub", Repository: "standard",
		Package: "hello", Filename: "hello-1.0-1.1.x86_64.rpm", Filepath: hello[1], BaseProject: "base", Type: "rpm"}
	if len(found.Records) != 1 || found.Records[0] != want {
		t.Errorf("the record: %+v, want %+v", found.Records, want)
	}
	if n, got := files(searchBob, "@project='pub'", Page{Limit: 1, Offset: 1}); n != 3 || !slices.Equal(got, hello[:1]) {
		t.Errorf("page 2 of 1: %d %v", n, got)
	}
	for _, bad := range []string{"@foo='x'", "position()=1", "@name='x"} {
		_, err := s.SearchPublishedBinaries(searchBob, bad, Page{})
		var f *fault.Error
		if !errors.As(err, &f) || f.Code != "illegal_xpath_error" {
			t.Errorf("%s: %v, want illegal_xpath_error", bad, err)
		}
	}
}

// TestSearchPublishedPatterns: a project's patterns per published repository, named by their
// <name> or their file, and read protection.
func TestSearchPublishedPatterns(t *testing.T) {
	s := binarySearchWorld(t)
	for _, c := range []struct {
		match string
		who   buildstore.Person
		want  []string
	}{
		{"@name='devtools'", searchBob, []string{"pub/standard/devtools.xml"}},
		{"contains(summary, 'developer')", searchBob, []string{"pub/standard/devtools.xml"}},
		{"description='Compilers' and path/@project='base'", searchBob, []string{"pub/standard/devtools.xml"}},
		{"@name='unnamed'", searchBob, []string{"pub/standard/unnamed.xml"}},
		{"@project='pub:hidden'", searchBob, nil},
		{"@project='pub:hidden'", searchAlice, []string{"pub:hidden/standard/secrets.xml"}},
		{"@filepath='x'", searchBob, nil},
	} {
		found, err := s.SearchPublishedPatterns(c.who, c.match, Page{})
		if err != nil {
			t.Fatalf("%s: %v", c.match, err)
		}
		var got []string
		for _, p := range found.Records {
			got = append(got, p.Project+"/"+p.Repository+"/"+p.Filename)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s as %s: %v, want %v", c.match, c.who.Login, got, c.want)
		}
	}
}

// TestSearchReleasedBinaries: what release targets hold, the keys OBS has for them, and
// those the appliance keeps no value for.
func TestSearchReleasedBinaries(t *testing.T) {
	s := binarySearchWorld(t)
	for _, c := range []struct {
		match string
		want  int
	}{
		{"@name='hello'", 1},
		{"@name='hello' and @version='1.0' and @release='1.1' and @arch='x86_64'", 1},
		{"repository/[@project='upd' and @name='update']", 1},
		{"@name='hello' and obsolete[not(@time)]", 1},
		{"@name='hello' and publish/@package='hello'", 1},
		{"@name='hello' and @version='1.1'", 0},
		{"@name='doc'", 0}, // published, not released
		{"@name='hello' and supportstatus='l3'", 0},
		{"@name='hello' and updatefor/@project='upd'", 0},
	} {
		found, err := s.SearchReleasedBinaries(searchBob, c.match, false, Page{})
		if err != nil || found.Matches != c.want {
			t.Errorf("%s: %d %v, want %d", c.match, found.Matches, err, c.want)
		}
	}
	found, _ := s.SearchReleasedBinaries(searchBob, "@name='hello'", true, Page{})
	want := ReleasedBinary{Project: "upd", Repository: "update", Name: "hello", Version: "1.0", Release: "1.1", Arch: "x86_64", Package: "hello"}
	if len(found.Records) != 1 || found.Records[0] != want {
		t.Errorf("the record: %+v, want %+v", found.Records, want)
	}
	if _, err := s.SearchReleasedBinaries(searchBob, "", false, Page{}); err == nil {
		t.Error("an empty match on the full route is not refused")
	}
	for _, match := range []string{"", "publish/@package='hello'", "repository/@name='update'"} {
		if _, err := s.SearchReleasedBinaries(searchBob, match, true, Page{}); err == nil {
			t.Errorf("%q names no binary and is not refused (the seed asks for @name or @disturl)", match)
		}
	}
}

// TestSplitRPMName: published file names as the backend reads them.
func TestSplitRPMName(t *testing.T) {
	for _, c := range []struct{ file, name, version, release, arch string }{
		{"hello-1.0-1.1.x86_64.rpm", "hello", "1.0", "1.1", "x86_64"},
		{"python3-foo-bar-2.3.4-5.noarch.rpm", "python3-foo-bar", "2.3.4", "5", "noarch"},
		{"hello-1.0-1.1.src.rpm", "hello", "1.0", "1.1", "src"},
		{"x-1.0.x86_64.rpm", "", "", "", ""},
		{"repomd.xml", "", "", "", ""},
		{"-1-2.x.rpm", "", "", "", ""},
		{"a--2.x.rpm", "", "", "", ""},
	} {
		n, v, r, a, ok := buildsvc.SplitRPMName(c.file)
		if n != c.name || v != c.version || r != c.release || a != c.arch || ok != (c.name != "") {
			t.Errorf("%s: %q %q %q %q %v", c.file, n, v, r, a, ok)
		}
	}
	if got := publishedName("home:alice:x", "standard"); got != "home:/alice:/x/standard" {
		t.Errorf("publishedName: %s", got)
	}
}
