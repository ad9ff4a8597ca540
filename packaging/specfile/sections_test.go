package specfile

import (
	"reflect"
	"testing"
)

func TestBuildArchNoarch(t *testing.T) {
	text := header + `BuildArch: noarch
%ifarch noarch
BuildRequires: python3-setuptools
%endif
%description
x
%package sub
Summary: sub
%description sub
y
%build
echo %{_target_cpu} %{_arch}
%files
%files sub
`
	s := mustParse(t, text, Options{Arch: "aarch64"})
	if s.BuildArch != "noarch" || s.Packages[0].Arch != "noarch" || s.Packages[1].Arch != "noarch" {
		t.Errorf("BuildArch %q, arches %q %q", s.BuildArch, s.Packages[0].Arch, s.Packages[1].Arch)
	}
	if !reflect.DeepEqual(s.BuildRequires, []Dep{{Name: "python3-setuptools"}}) {
		t.Errorf("%%ifarch noarch not taken on the second pass: %v", s.BuildRequires)
	}
	if got := lineTexts(s.Build); !reflect.DeepEqual(got, []string{"echo noarch aarch64"}) {
		t.Errorf("build = %q", got)
	}
	other := mustParse(t, header+"BuildArch: i686 x86_64\n", Options{Arch: "x86_64"})
	if other.Packages[0].Arch != "x86_64" {
		t.Errorf("arch = %q, want the repository's arch when listed", other.Packages[0].Arch)
	}
	other = mustParse(t, header+"BuildArch: i686\n", Options{Arch: "x86_64"})
	if other.Packages[0].Arch != "i686" {
		t.Errorf("arch = %q, want i686", other.Packages[0].Arch)
	}
}

func TestScripts(t *testing.T) {
	text := "Name: foo\r\nVersion: 1\r\nRelease: 1\r\n" + `%description
d
%prep
%autosetup -p1

%build -a
echo appended
%build
# configure first
./configure \
    --prefix=%{_prefix}
    make %{?_smp_mflags}
%define multi line1\
line2
%multi
%build -p
echo prepended
%install
%make_install
%check
make check
%clean
rm -rf %{buildroot}
%changelog
* Mon Jan 06 2025 A <a@example.org> - 1-1
- 100% new
`
	s := mustParse(t, text, Options{})
	want := []Line{{20, "echo prepended"}, {13, "./configure \\\n    --prefix=/usr"}, {15, "    make -j4"},
		{18, "line1"}, {18, "line2"}, {10, "echo appended"}}
	if !reflect.DeepEqual(s.Build, want) {
		t.Errorf("build = %#v", s.Build)
	}
	if got := lineTexts(s.Prep); !reflect.DeepEqual(got, []string{"%autosetup -p1"}) {
		t.Errorf("prep = %q", got)
	}
	if len(s.Install) != 1 || len(s.Check) != 1 || s.Check[0] != (Line{24, "make check"}) {
		t.Errorf("install = %v, check = %v", s.Install, s.Check)
	}
}
