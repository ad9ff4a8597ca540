package specfile

import (
	"reflect"
	"testing"
)

func TestPackages(t *testing.T) {
	text := `Name:    foo
Epoch:   02
Version: 1.0
Release: 3%{?dist}
Summary: The foo tool
License: MIT
URL:     https://example.org/foo
Provides: foo-tool = %{version}
Requires: bash, coreutils >= 9
Requires(post): /sbin/ldconfig
PreReq: fillup
Conflicts: bar < 2
Obsoletes: oldfoo < 1.0
Recommends: foo-doc
Suggests: (foo-extra if bar)

%description
Foo does things.

  Indented paragraph.


%package -n libfoo1
Summary: Library for %{name}
License: LGPL-2.1-or-later
Provides: libfoo.so.1()(64bit)

%description -n libfoo1
The %{summary}.

%package doc
Summary: Documentation
BuildArch: noarch
Group: Documentation

%description doc
Docs.
%description -l de doc
Dokumentation.

%package unused
Summary: Never built

%files
%license COPYING
%doc README
%{_bindir}/foo
# a comment

%files -n libfoo1 -f libfoo.lang
%{_libdir}/libfoo.so.*

%files doc
%{_docdir}/%{name}
%files doc -f more.list
%dir %{_datadir}/foo
`
	s := mustParse(t, text, Options{Macros: map[string]string{"dist": ".pk1"}})
	if s.Name != "foo" || s.Epoch != "2" || s.Version != "1.0" || s.Release != "3.pk1" || s.VersionRelease() != "1.0-3.pk1" {
		t.Errorf("NEVR = %q %q %q %q", s.Name, s.Epoch, s.Version, s.Release)
	}
	if s.Summary != "The foo tool" || s.License != "MIT" || s.URL != "https://example.org/foo" || s.Group != "Unspecified" {
		t.Errorf("main fields = %q %q %q %q", s.Summary, s.License, s.URL, s.Group)
	}
	want := []Package{{
		Name: "foo", Epoch: "2", Version: "1.0", Release: "3.pk1", Summary: "The foo tool",
		Description: "Foo does things.\n\n  Indented paragraph.", License: "MIT", Group: "Unspecified",
		URL: "https://example.org/foo", Arch: "x86_64", ISA: "x86-64",
		Provides:   []Dep{{"foo-tool", "=", "1.0"}},
		Requires:   []Dep{{Name: "bash"}, {"coreutils", ">=", "9"}, {Name: "/sbin/ldconfig"}, {Name: "fillup"}},
		Conflicts:  []Dep{{"bar", "<", "2"}},
		Obsoletes:  []Dep{{"oldfoo", "<", "1.0"}},
		Recommends: []Dep{{Name: "foo-doc"}},
		Suggests:   []Dep{{Name: "(foo-extra if bar)"}},
		Files:      []string{"%license COPYING", "%doc README", "/usr/bin/foo"},
		Entries: []FileEntry{
			{Path: "/usr/share/licenses/foo/COPYING", License: true, Source: "COPYING"},
			{Path: "/usr/share/doc/packages/foo/README", Doc: true, Source: "README"},
			{Path: "/usr/bin/foo"}},
		HasFiles: true,
	}, {
		Name: "libfoo1", Epoch: "2", Version: "1.0", Release: "3.pk1", Summary: "Library for foo",
		Description: "The Library for foo.", License: "LGPL-2.1-or-later", Group: "Unspecified",
		URL: "https://example.org/foo", Arch: "x86_64", ISA: "x86-64",
		Provides:  []Dep{{Name: "libfoo.so.1()(64bit)"}},
		Files:     []string{"/usr/lib64/libfoo.so.*"},
		Entries:   []FileEntry{{Path: "/usr/lib64/libfoo.so.*"}},
		FileLists: []string{"libfoo.lang"},
		HasFiles:  true,
	}, {
		Name: "foo-doc", Epoch: "2", Version: "1.0", Release: "3.pk1", Summary: "Documentation",
		Description: "Docs.", License: "MIT", Group: "Documentation", URL: "https://example.org/foo",
		Arch: "noarch", Files: []string{"/usr/share/doc/packages/foo", "%dir /usr/share/foo"},
		Entries:   []FileEntry{{Path: "/usr/share/doc/packages/foo"}, {Path: "/usr/share/foo", Dir: true}},
		FileLists: []string{"more.list"}, HasFiles: true,
	}, {
		Name: "foo-unused", Epoch: "2", Version: "1.0", Release: "3.pk1", Summary: "Never built",
		License: "MIT", Group: "Unspecified", URL: "https://example.org/foo", Arch: "x86_64", ISA: "x86-64",
	}}
	if !reflect.DeepEqual(s.Packages, want) {
		for i := range max(len(want), len(s.Packages)) {
			if i >= len(want) || i >= len(s.Packages) || !reflect.DeepEqual(s.Packages[i], want[i]) {
				var g, w Package
				if i < len(s.Packages) {
					g = s.Packages[i]
				}
				if i < len(want) {
					w = want[i]
				}
				t.Errorf("package %d =\n%#v\nwant\n%#v", i, g, w)
			}
		}
	}
	main := s.Package("foo")
	if got := main.AllProvides(); !reflect.DeepEqual(got, []Dep{{"foo-tool", "=", "1.0"}, {"foo", "=", "2:1.0-3.pk1"}, {"foo(x86-64)", "=", "2:1.0-3.pk1"}}) {
		t.Errorf("AllProvides = %v", got)
	}
	if s.Package("nosuch") != nil {
		t.Error("Package(nosuch) != nil")
	}
}

func TestScriptlets(t *testing.T) {
	text := header + `Requires: /bin/sh
%package -n libfoo1
Summary: lib
%package tools
Summary: tools
%description
d
%pre
getent group foo || groupadd -r foo
%post -n libfoo1 -p /sbin/ldconfig
%postun -n libfoo1 -p /sbin/ldconfig
%pretrans tools -p <lua>
print("hi")
%triggerin -- bash
echo a
%triggerin -- zsh
echo b
%files
%files -n libfoo1
%files tools
`
	s := mustParse(t, text, Options{})
	for name, want := range map[string][]Dep{
		"foo":       {{Name: "/bin/sh"}},
		"libfoo1":   {{Name: "/sbin/ldconfig"}},
		"foo-tools": nil,
	} {
		if got := s.Package(name).Requires; !reflect.DeepEqual(got, want) {
			t.Errorf("%s requires %v, want %v", name, got, want)
		}
	}
	errs := map[string]string{
		"%post\n%post\n":      "line 7: Second %post",
		"%post -p sh\n":       "line 6: script program must begin with '/': sh",
		"%post -p <lua\n":     "line 6: internal script must end with '>': <lua",
		"%post -p <python>\n": "line 6: unsupported internal script: <python>",
		"%preun nosuch\n":     "line 6: %preun nosuch: package foo-nosuch does not exist",
		"%post -p\n":          "line 6: Bad option -p: %post -p",
	}
	for body, want := range errs {
		if _, err := Parse([]byte(header+body), Options{}); err == nil || err.Error() != want {
			t.Errorf("%q: err = %v, want %q", body, err, want)
		}
	}
}
