package rpmout

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// iggy is OBS's own ymp test case (api test "ymp as used on software.o.o"): TestPack in
// home:Iggy/10.2, whose path leads to BaseDistro/BaseDistro_repo, with the download server at
// http://example.com/download. OBS asserts the home repository recommended with
// http://example.com/download/home:/Iggy/10.2/, the base one not recommended with
// http://example.com/download/BaseDistro/BaseDistro_repo/, and "The TestPack package" as
// summary and description when the binary cannot be read.
func iggy() YMPInput {
	const base = "http://example.com/download"
	return YMPInput{
		Binary: "TestPack",
		Path: []YMPPathEntry{
			{Project: "home:Iggy", Repository: "10.2", Title: "Iggy's Home Project", Description: "Tests & <stuff>",
				URL: RepositoryURL(base, "home:Iggy", "10.2")},
			{Project: "BaseDistro", Repository: "BaseDistro_repo", Title: "Base Distro", Description: "",
				URL: RepositoryURL(base, "BaseDistro", "BaseDistro_repo")},
		},
	}
}

func renderYMP(t *testing.T, doc Metapackage) string {
	t.Helper()
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return xml.Header + string(b) + "\n"
}

func TestYMPGolden(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "ymp.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := renderYMP(t, YMP(iggy())); got != string(want) {
		t.Errorf("ymp =\n%s\nwant\n%s", got, want)
	}
}

func TestYMP(t *testing.T) {
	type repo struct{ name, recommended, url string }
	for _, tc := range []struct {
		name   string
		change func(*YMPInput)
		repos  []repo
		groups []string
		item   YMPItem
	}{
		{"OBS's case", func(*YMPInput) {}, []repo{
			{"home:Iggy", "true", "http://example.com/download/home:/Iggy/10.2/"},
			{"BaseDistro", "false", "http://example.com/download/BaseDistro/BaseDistro_repo/"},
		}, []string{""}, YMPItem{"TestPack", "The TestPack package", "The TestPack package"}},
		{"summary and description from the binary", func(in *YMPInput) {
			in.Summary, in.Description = "Test <pack>", "A & B"
		}, []repo{
			{"home:Iggy", "true", "http://example.com/download/home:/Iggy/10.2/"},
			{"BaseDistro", "false", "http://example.com/download/BaseDistro/BaseDistro_repo/"},
		}, []string{""}, YMPItem{"TestPack", "Test <pack>", "A & B"}},
		{"a path of one is recommended", func(in *YMPInput) { in.Path = in.Path[:1] }, []repo{
			{"home:Iggy", "true", "http://example.com/download/home:/Iggy/10.2/"},
		}, []string{""}, YMPItem{"TestPack", "The TestPack package", "The TestPack package"}},
		{"middle repositories are recommended", func(in *YMPInput) {
			in.Path = append(in.Path[:1], YMPPathEntry{Project: "devel:tools", Repository: "10.2", URL: "u2"}, in.Path[1])
		}, []repo{
			{"home:Iggy", "true", "http://example.com/download/home:/Iggy/10.2/"},
			{"devel:tools", "true", "u2"},
			{"BaseDistro", "false", "http://example.com/download/BaseDistro/BaseDistro_repo/"},
		}, []string{""}, YMPItem{"TestPack", "The TestPack package", "The TestPack package"}},
		{"no URL, left out", func(in *YMPInput) { in.Path[0].URL = "" }, []repo{
			{"BaseDistro", "true", "http://example.com/download/BaseDistro/BaseDistro_repo/"},
		}, []string{""}, YMPItem{"TestPack", "The TestPack package", "The TestPack package"}},
		{"repeated entry once", func(in *YMPInput) { in.Path = append(in.Path, in.Path[0]) }, []repo{
			{"home:Iggy", "true", "http://example.com/download/home:/Iggy/10.2/"},
			{"BaseDistro", "true", "http://example.com/download/BaseDistro/BaseDistro_repo/"},
		}, []string{""}, YMPItem{"TestPack", "The TestPack package", "The TestPack package"}},
		{"empty path", func(in *YMPInput) { in.Path = nil }, nil, []string{""},
			YMPItem{"TestPack", "The TestPack package", "The TestPack package"}},
		{"ympdist groups", func(in *YMPInput) { in.DistVersions = []string{"openSUSE 15.6", "SLE 15", "openSUSE 15.6"} }, []repo{
			{"home:Iggy", "true", "http://example.com/download/home:/Iggy/10.2/"},
			{"BaseDistro", "false", "http://example.com/download/BaseDistro/BaseDistro_repo/"},
		}, []string{"openSUSE 15.6", "SLE 15"}, YMPItem{"TestPack", "The TestPack package", "The TestPack package"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := iggy()
			tc.change(&in)
			doc := YMP(in)
			if doc.XMLNS != OneClickNS || doc.XMLNSOS != OneClickNS {
				t.Errorf("namespaces %q %q", doc.XMLNS, doc.XMLNSOS)
			}
			var dists []string
			for _, g := range doc.Groups {
				dists = append(dists, g.DistVersion)
				var repos []repo
				for _, r := range g.Repositories.Repository {
					repos = append(repos, repo{r.Name, r.Recommended, r.URL})
				}
				if !slices.Equal(repos, tc.repos) {
					t.Errorf("repositories %v, want %v", repos, tc.repos)
				}
				if len(g.Software.Item) != 1 || g.Software.Item[0] != tc.item {
					t.Errorf("items %+v, want %+v", g.Software.Item, tc.item)
				}
			}
			if strings.Join(dists, "|") != strings.Join(tc.groups, "|") {
				t.Errorf("groups %q, want %q", dists, tc.groups)
			}
			// Whatever the input, the document renders and parses back.
			var back Metapackage
			if err := xml.Unmarshal([]byte(renderYMP(t, doc)), &back); err != nil {
				t.Errorf("rendered ymp does not parse: %v", err)
			}
		})
	}
}

func TestRepositoryURL(t *testing.T) {
	for _, tc := range []struct{ base, project, repo, want string }{
		{"https://dl.example.org/repositories", "home:alice", "openSUSE_Tumbleweed", "https://dl.example.org/repositories/home:/alice/openSUSE_Tumbleweed/"},
		{"https://dl.example.org/repositories/", "devel:tools:building", "15.6", "https://dl.example.org/repositories/devel:/tools:/building/15.6/"},
		{"http://h", "Pocket:1.0", "standard", "http://h/Pocket:/1.0/standard/"},
		{"http://h", "odd project#1", "a b?", "http://h/odd%20project%231/a%20b%3F/"},
		{"", "p", "r", "/p/r/"},
	} {
		if got := RepositoryURL(tc.base, tc.project, tc.repo); got != tc.want {
			t.Errorf("RepositoryURL(%q, %q, %q) = %q, want %q", tc.base, tc.project, tc.repo, got, tc.want)
		}
	}
}

func TestBinaryName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"bash-5.2.37-1.1.x86_64.rpm", "bash"},
		{"foo-devel-1.0-1.1.x86_64.rpm", "foo-devel"},
		{"x86_64/perl-Foo-Bar-0.1-3.1.noarch.rpm", "perl-Foo-Bar"},
		{"demo-1.2-3.1.src.rpm", "demo"},
		{"libfoo1_1.0-2_amd64.deb", "libfoo1"},
		{"thing.rpm", "thing"},
		{"TestPack", "TestPack"},
		{"x86_64/TestPack", "TestPack"},
		{"", ""},
	} {
		if got := BinaryName(tc.in); got != tc.want {
			t.Errorf("BinaryName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
