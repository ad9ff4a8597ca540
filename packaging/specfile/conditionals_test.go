package specfile

import (
	"reflect"
	"testing"
)

func TestConditionals(t *testing.T) {
	cases := []struct {
		name string
		arch string
		body string
		want []string // %build lines
	}{
		{"if true", "", "%if 1\na\n%endif\nb", []string{"a", "b"}},
		{"if false", "", "%if 0\na\n%endif\nb", []string{"b"}},
		{"else", "", "%if 0\na\n%else\nb\n%endif", []string{"b"}},
		{"elif", "", "%if 0\na\n%elif 1\nb\n%elif 1\nc\n%else\nd\n%endif", []string{"b"}},
		{"elif none", "", "%if 0\na\n%elif 0\nb\n%else\nc\n%endif", []string{"c"}},
		{"nested false", "", "%if 0\n%if 1\na\n%else\nb\n%endif\nc\n%endif\nd", []string{"d"}},
		{"nested true", "", "%if 1\n%if 0\na\n%else\nb\n%endif\n%endif", []string{"b"}},
		{"suse version idiom", "", "%if 0%{?suse_version} >= 1500\na\n%endif\n%if 0%{?pocket_version} > 0\nb\n%endif", []string{"b"}},
		{"string compare", "", "%if \"%{_vendor}\" == \"pocket\"\na\n%endif", []string{"a"}},
		{"logic", "", "%if 0%{?fedora} || 0%{?pocket_version} && !0%{?rhel}\na\n%endif", []string{"a"}},
		{"with tests off", "", "%bcond_with tests\n%if %{with tests}\na\n%endif\n%if %{without tests}\nb\n%endif", []string{"b"}},
		{"with tests on", "", "%bcond_without tests\n%if %{with tests}\na\n%endif", []string{"a"}},
		{"ifarch", "aarch64", "%ifarch x86_64 aarch64\na\n%endif\n%ifarch %{ix86}\nb\n%endif", []string{"a"}},
		{"ifarch ix86", "i586", "%ifarch %{ix86}\na\n%endif", []string{"a"}},
		{"ifnarch", "x86_64", "%ifnarch x86_64\na\n%else\nb\n%endif", []string{"b"}},
		{"elifarch", "aarch64", "%ifarch x86_64\na\n%elifarch aarch64\nb\n%else\nc\n%endif", []string{"b"}},
		{"ifos", "", "%ifos linux\na\n%endif\n%ifnos linux\nb\n%endif", []string{"a"}},
		{"define skipped in false branch", "", "%if 0\n%define x 1\n%endif\n%{!?x:unset}", []string{"unset"}},
		{"endif comment", "", "%if 1\na\n%endif # done", []string{"a"}},
		{"continued condition", "", "%if 1 && \\\n 0\na\n%endif", nil},
		{"ifx is text", "", "%ifx\n", []string{"%ifx"}},
		{"indented if", "", "  %if 0\na\n  %endif", nil},
		{"bad expr in false branch", "", "%if 0\n%if bare words\na\n%endif\n%endif", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opt := Options{Arch: c.arch, Macros: map[string]string{"pocket_version": "1"}}
			s := mustParse(t, header+"%description\nd\n%build\n"+c.body+"\n", opt)
			if got := lineTexts(s.Build); !reflect.DeepEqual(got, c.want) {
				t.Errorf("build = %q, want %q", got, c.want)
			}
		})
	}
}

func TestConditionalsInPreamble(t *testing.T) {
	text := `Name: foo
Version: 1.0
Release: 1
%if %{with_extra}
BuildRequires: never
%endif
%ifarch aarch64
ExcludeArch: aarch64
%endif
%if "%{_vendor}" == "pocket"
BuildRequires: pocket-rpm-config
%endif
`
	s := mustParse(t, text, Options{Arch: "aarch64", Macros: map[string]string{"with_extra": "0"}})
	if want := []Dep{{Name: "pocket-rpm-config"}}; !reflect.DeepEqual(s.BuildRequires, want) {
		t.Errorf("BuildRequires = %v, want %v", s.BuildRequires, want)
	}
	if !reflect.DeepEqual(s.ExcludeArch, []string{"aarch64"}) {
		t.Errorf("ExcludeArch = %v", s.ExcludeArch)
	}
	if s := mustParse(t, text, Options{Arch: "x86_64", Macros: map[string]string{"with_extra": "0"}}); s.ExcludeArch != nil {
		t.Errorf("ExcludeArch on x86_64 = %v", s.ExcludeArch)
	}
}
