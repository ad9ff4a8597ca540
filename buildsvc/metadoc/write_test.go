package metadoc

import (
	"encoding/xml"
	"testing"

	"github.com/pocketforge/pocketforge/buildsvc/xmlindent"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// collection is how the API wraps metas in a search answer.
type collection[T any] struct {
	XMLName xml.Name `xml:"collection"`
	Matches int      `xml:"matches,attr"`
	Items   []T
}

// awkward are texts that need every kind of escaping encoding/xml does: the five specials,
// whitespace characters written as references, control characters and invalid UTF-8 (U+FFFD),
// characters outside XML's range, multi-byte UTF-8, and the empty string.
var awkward = []string{"", "plain", `a <b> & "c" 'd'`, "line\nnext\ttab\rcr", "ünïcödé ✓ 𝄞", "\x01\x1f\x7f", "\xff\xfe bad",
	"\uFFFE\uFFFF\U0010FFFF", "]]>", " lead and trail ", "&amp;"}

// fullPackage is a package record with every optional part set to s.
func fullPackage(s string) buildstore.Package {
	return buildstore.Package{Project: "p" + s, Name: "k" + s, Title: s, Description: s, URL: s, SCMSync: s,
		Devel:   &buildstore.Devel{Project: s, Package: s},
		Persons: []buildstore.Role{{ID: s, Role: "maintainer"}, {ID: "bob", Role: s}},
		Groups:  []buildstore.Role{{ID: s, Role: "reviewer"}},
		Flags: []buildstore.Flag{{Name: "publish", Status: "disable"}, {Name: "build", Status: "enable", Repository: s, Arch: "x86_64"},
			{Name: "build", Status: "disable", Arch: s}, {Name: "access", Status: "disable"}, {Name: "nosuchflag", Status: "enable"},
			{Name: "debuginfo", Status: ""}, {Name: "useforbuild", Status: "enable"}, {Name: "binarydownload", Status: "disable"},
			{Name: "sourceaccess", Status: "disable", Repository: s}},
		Locked: true}
}

// fullProject is a project record with every optional part set to s.
func fullProject(s string) buildstore.Project {
	return buildstore.Project{Name: "p" + s, Kind: s, Title: s, Description: s, URL: s, Devel: s,
		Links:   []buildstore.Link{{Project: s, VRevMode: "extend"}, {Project: "q", VRevMode: s}},
		Persons: []buildstore.Role{{ID: s, Role: "maintainer"}}, Groups: []buildstore.Role{{ID: "g", Role: s}},
		Flags:  []buildstore.Flag{{Name: "build", Status: "disable", Repository: s}, {Name: "lock", Status: "enable"}},
		Locked: true,
		Repositories: []buildstore.Repository{
			{Name: "a" + s, Archs: []string{"x86_64", s}, Paths: []buildstore.Path{{Project: s, Repository: "r"}, {Project: "o", Repository: s}}},
			{Name: "z", Rebuild: s, Block: s, LinkedBuild: s, ReleaseTarget: &buildstore.ReleaseTarget{Project: s, Repository: s, Trigger: s}},
			{Name: "m"}, {Name: "z", ReleaseTarget: &buildstore.ReleaseTarget{}}, {Name: ""}}}
}

// TestAppendPackageIsMarshalIndent: the package writer writes what encoding/xml writes of
// FromPackage, alone and in a collection, for metas with nothing optional, with everything,
// and with text that needs escaping in every element and attribute.
func TestAppendPackageIsMarshalIndent(t *testing.T) {
	checkPackage(t, buildstore.Package{})
	checkPackage(t, buildstore.Package{Project: "p", Name: "k", Devel: &buildstore.Devel{}})
	checkPackage(t, buildstore.Package{Project: "p", Name: "k", Flags: []buildstore.Flag{{Name: "other", Status: "enable"}}})
	for _, s := range awkward {
		checkPackage(t, fullPackage(s))
		k := fullPackage(s)
		k.Locked, k.Devel, k.Persons, k.Flags = false, &buildstore.Devel{Package: s}, nil, k.Flags[:1]
		checkPackage(t, k)
	}
}

// TestAppendProjectIsMarshalIndent is the same for project metas (repositories render sorted
// by name, descending).
func TestAppendProjectIsMarshalIndent(t *testing.T) {
	checkProject(t, buildstore.Project{})
	checkProject(t, buildstore.Project{Name: "p", Repositories: []buildstore.Repository{{Name: "b"}, {Name: "a"}}})
	for _, s := range awkward {
		checkProject(t, fullProject(s))
		p := fullProject(s)
		p.Locked, p.Links, p.Repositories = false, nil, p.Repositories[1:2]
		checkProject(t, p)
	}
}

func checkPackage(t *testing.T, k buildstore.Package) {
	t.Helper()
	check(t, FromPackage(k), func(b []byte, depth int) []byte { return AppendPackage(b, k, depth) })
	if want, _ := xml.MarshalIndent(FromPackage(k), "", "  "); string(RenderPackage(k)) != string(want)+"\n" {
		t.Fatalf("RenderPackage:\n%s\nwant\n%s", RenderPackage(k), want)
	}
}

func checkProject(t *testing.T, p buildstore.Project) {
	t.Helper()
	check(t, FromProject(p), func(b []byte, depth int) []byte { return AppendProject(b, p, depth) })
}

// check compares the writer's output with encoding/xml's, alone (depth 0) and as two items of
// a collection (depth 1), and an empty collection as the API writes it.
func check[T any](t *testing.T, doc T, write func([]byte, int) []byte) {
	t.Helper()
	want, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if got := write(nil, 0); string(got) != string(want) {
		t.Fatalf("alone:\n%s\nwant\n%s", got, want)
	}
	wantC, err := xml.MarshalIndent(collection[T]{Matches: 2, Items: []T{doc, doc}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got := xmlindent.Collection(nil, 2, 2, func(b []byte, _ int) []byte { return write(b, 1) })
	if string(got) != string(wantC)+"\n" {
		t.Fatalf("in a collection:\n%s\nwant\n%s", got, wantC)
	}
}

// FuzzAppendPackage: any text in any field of a package record renders as encoding/xml
// renders its document.
func FuzzAppendPackage(f *testing.F) {
	for _, s := range awkward {
		f.Add(s, "maintainer", "build", "disable", true)
	}
	f.Fuzz(func(t *testing.T, s, role, flag, status string, locked bool) {
		k := fullPackage(s)
		k.Persons[1].Role, k.Locked = role, locked
		k.Flags = append(k.Flags, buildstore.Flag{Name: flag, Status: status, Arch: s})
		checkPackage(t, k)
	})
}

// FuzzAppendProject: the same for project records.
func FuzzAppendProject(f *testing.F) {
	for _, s := range awkward {
		f.Add(s, "x86_64", "standard", true)
	}
	f.Fuzz(func(t *testing.T, s, arch, repo string, locked bool) {
		p := fullProject(s)
		p.Locked = locked
		p.Repositories = append(p.Repositories, buildstore.Repository{Name: repo, Archs: []string{arch}})
		checkProject(t, p)
	})
}
