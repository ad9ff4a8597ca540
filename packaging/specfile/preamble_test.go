package specfile

import (
	"reflect"
	"testing"
)

func TestSources(t *testing.T) {
	text := header + `Source: https://example.org/foo-%{version}.tar.gz
Source5: foo.conf
Source: https://github.com/x/foo/archive/v1.tar.gz#/foo-1.tar.gz
Patch0: fix-a.patch
Patch: fix-b.patch
Patch10: fix-c.patch
%sourcelist
extra.txt
%patchlist
fix-d.patch
%prep
%setup -q
cp %{SOURCE5} %{S:6} .
echo %{PATCH11} %{SOURCEURL0}
`
	s := mustParse(t, text, Options{})
	wantSrc := []string{"https://example.org/foo-1.0.tar.gz", "foo.conf", "https://github.com/x/foo/archive/v1.tar.gz#/foo-1.tar.gz", "extra.txt"}
	if !reflect.DeepEqual(s.Sources, wantSrc) {
		t.Errorf("Sources = %q", s.Sources)
	}
	if want := []string{"fix-a.patch", "fix-b.patch", "fix-c.patch", "fix-d.patch"}; !reflect.DeepEqual(s.Patches, want) {
		t.Errorf("Patches = %q", s.Patches)
	}
	if want := []int{0, 1, 10, 11}; !reflect.DeepEqual(s.PatchNumbers, want) {
		t.Errorf("PatchNumbers = %v", s.PatchNumbers)
	}
	if want := []int{0, 5, 6, 7}; !reflect.DeepEqual(s.SourceNumbers, want) {
		t.Errorf("SourceNumbers = %v", s.SourceNumbers)
	}
	want := []string{"%setup -q", "cp /home/abuild/rpmbuild/SOURCES/foo.conf /home/abuild/rpmbuild/SOURCES/foo-1.tar.gz .",
		"echo /home/abuild/rpmbuild/SOURCES/fix-d.patch https://example.org/foo-1.0.tar.gz"}
	if got := lineTexts(s.Prep); !reflect.DeepEqual(got, want) {
		t.Errorf("prep = %q", got)
	}
	for in, want := range map[string]string{
		"https://example.org/a/foo-1.tar.gz":   "foo-1.tar.gz",
		"https://x/archive/v1.tar.gz#/foo.tgz": "foo.tgz",
		"local.patch":                          "local.patch",
	} {
		if got := FileName(in); got != want {
			t.Errorf("FileName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTagMacros(t *testing.T) {
	text := `Name: foo
Version: 1.0
Release: 1
Summary: main summary
License: MIT
%description
%{NAME}/%{VERSION}/%{summary}
%package sub
Summary: sub summary
%description sub
%{summary}/%{NAME}
`
	s := mustParse(t, text, Options{})
	if got := s.Packages[0].Description; got != "foo/1.0/main summary" {
		t.Errorf("main description = %q", got)
	}
	if got := s.Packages[1].Description; got != "sub summary/foo" {
		t.Errorf("sub description = %q", got)
	}
}

func TestOptionsMacros(t *testing.T) {
	text := header + "Release: 1%{?dist}\n%description\n%{_vendor} %{?mine} %{_bindir}\n"
	s, err := Parse([]byte("Name: foo\nVersion: 1\n"+text[len(header):]), Options{
		Macros: map[string]string{"%dist": ".pocket1", "_vendor": "demo", "mine": "%{name}!", "_bindir": "/opt/bin", "expand": "not a builtin"}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Release != "1.pocket1" || s.Packages[0].Description != "demo foo! /opt/bin" {
		t.Errorf("release %q, description %q", s.Release, s.Packages[0].Description)
	}
}
