package resolve

import (
	"reflect"
	"testing"
)

var depSources = []DepSource{
	{Name: "tool", Deps: []string{"glibc", "libbar-devel", "make"}, Subpkgs: []string{"tool", "tool-doc"}},
	{Name: "bar", Source: "libbar", Deps: []string{"make"}, Subpkgs: []string{"libbar1", "libbar-devel", "libbar"}},
	{Name: "egg", Deps: []string{"hen"}, Subpkgs: []string{"egg"}},
	{Name: "hen", Deps: []string{"egg", "tool-doc"}},
}

func TestBuildDepInfo(t *testing.T) {
	cycles := [][]string{{"egg", "hen"}}
	for _, tc := range []struct {
		view string
		only []string
		want DepInfo
	}{
		{"", nil, DepInfo{Cycles: cycles, Packages: []DepInfoPackage{
			{"bar", "libbar", []string{"make"}, []string{"libbar", "libbar-devel", "libbar1"}},
			{"egg", "egg", []string{"hen"}, []string{"egg"}},
			{"hen", "hen", []string{"egg", "tool-doc"}, []string{"hen"}},
			{"tool", "tool", []string{"glibc", "libbar-devel", "make"}, []string{"tool", "tool-doc"}},
		}}},
		{"pkgnames", []string{"tool", "hen"}, DepInfo{Cycles: cycles, Packages: []DepInfoPackage{
			{"hen", "hen", []string{"egg", "tool"}, []string{"hen"}},
			{"tool", "tool", []string{"bar"}, []string{"tool", "tool-doc"}},
		}}},
		{"revpkgnames", nil, DepInfo{Cycles: cycles, Packages: []DepInfoPackage{
			{"bar", "libbar", []string{"tool"}, []string{"libbar", "libbar-devel", "libbar1"}},
			{"egg", "egg", []string{"hen"}, []string{"egg"}},
			{"hen", "hen", []string{"egg"}, []string{"hen"}},
			{"tool", "tool", []string{"hen"}, []string{"tool", "tool-doc"}},
		}}},
		{"order", nil, DepInfo{Cycles: cycles, Packages: []DepInfoPackage{{Name: "bar"}, {Name: "tool"}, {Name: "egg"}, {Name: "hen"}}}},
		{"order", []string{"tool", "bar"}, DepInfo{Packages: []DepInfoPackage{{Name: "bar"}, {Name: "tool"}}}},
	} {
		got := BuildDepInfo(depSources, tc.view, tc.only)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("view %q only %v:\n got %+v\nwant %+v", tc.view, tc.only, got, tc.want)
		}
	}
	if got := BuildDepInfo(nil, "", nil); got.Packages != nil || got.Cycles != nil {
		t.Errorf("empty = %+v", got)
	}
}

func TestStateHash(t *testing.T) {
	a := StateHash("home:alice", "openSUSE", "x86_64", "building", "pkg", "succeeded", "")
	if len(a) != 32 {
		t.Fatalf("hash %q is not 32 hex digits", a)
	}
	if a != StateHash("home:alice", "openSUSE", "x86_64", "building", "pkg", "succeeded", "") {
		t.Error("same answer, different hash")
	}
	for _, other := range [][]string{
		{"home:alice", "openSUSE", "x86_64", "building", "pkg", "failed", ""},
		{"home:alice", "openSUSE", "x86_64", "building", "pkg", "succeeded", "details"},
		{"home:alice", "openSUSE", "x86_64", "building", "pkgsucceeded", "", ""},
	} {
		if StateHash(other...) == a {
			t.Errorf("visible change %v keeps the hash", other)
		}
	}
	if StateHash("ab", "c") == StateHash("a", "bc") {
		t.Error("part boundaries are not hashed")
	}
	if StateHash() != "d41d8cd98f00b204e9800998ecf8427e" {
		t.Errorf("empty state = %s, want md5 of nothing", StateHash())
	}
}
