package resolve

import (
	"reflect"
	"strings"
	"testing"
)

// A realistic base distribution configuration, in the style of a SUSE prjconf.
const baseConfig = `# Pocket:1.0 build configuration
Repotype: rpm-md
Type: spec
Preinstall: aaa_base attr bash coreutils diffutils filesystem fillup glibc grep
Preinstall: libbz2-1 libgcc_s1 ncurses-utils perl-base rpm sed tar
VMinstall: util-linux kmod
Runscripts: aaa_base
Required: gcc gcc-c++ make rpm-build
Support: build-compare brp-check-suse post-build-checks
Keep: binutils gcc glibc glibc-devel
Prefer: libncurses6 -libncurses5 python3-base
Prefer: build:pocket-release
Ignore: aaa_base:aaa_skel,suse-release
Ignore: rpm:suse-build-key
Substitute: python-devel python3-devel
Substitute: kernel-source kernel-default-devel=
ExportFilter: \.x86_64\.rpm$ . i586
Release: <CI_CNT>.<B_CNT>
%define pocket_version 1000
%if 0%{?pocket_version} >= 1000
Prefer: gcc12
%else
Prefer: gcc7
%endif
%ifarch aarch64
Support: qemu-linux-user
%endif
Optflags: x86_64 -O2 -g
Macros:
%pocket_version 1000
%_with_check 1
%multi_line first \
second
:Macros
`

func TestParseConfigKeywords(t *testing.T) {
	c, err := ParseConfig(baseConfig)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %#v, want %#v", name, got, want)
		}
	}
	check("Preinstall", c.Preinstall, strings.Fields("aaa_base attr bash coreutils diffutils filesystem fillup glibc grep libbz2-1 libgcc_s1 ncurses-utils perl-base rpm sed tar"))
	check("VMinstall", c.VMinstall, []string{"util-linux", "kmod"})
	check("Runscripts", c.Runscripts, []string{"aaa_base"})
	check("Required", c.Required, []string{"gcc", "gcc-c++", "make", "rpm-build"})
	check("Support", c.Support, []string{"build-compare", "brp-check-suse", "post-build-checks"}) // %ifarch off without an arch
	check("Keep", c.Keep, []string{"binutils", "gcc", "glibc", "glibc-devel"})
	check("Prefer", c.Prefer, []string{"libncurses6", "-libncurses5", "python3-base", "build:pocket-release", "gcc12"})
	check("Ignore", c.Ignore, []string{"aaa_base:aaa_skel,suse-release", "rpm:suse-build-key"})
	check("Substitute", c.Substitute, map[string][]string{"python-devel": {"python3-devel"}, "kernel-source": {"kernel-default-devel"}})
	check("ExportFilter", c.ExportFilter, map[string][]string{`\.x86_64\.rpm$`: {".", "i586"}})
	check("Type", c.Type, "spec")
	check("BinaryType", c.BinaryType, "rpm")
	check("Repotype", c.Repotype, []string{"rpm-md"})
	check("Release", c.Release, "<CI_CNT>.<B_CNT>")
	check("Defines", c.Defines, map[string]string{"pocket_version": "1000"})
	check("Other", c.Other, []string{"Optflags: x86_64 -O2 -g"})
	check("Macros", c.Macros, "%pocket_version 1000\n%_with_check 1\n%multi_line first \\\nsecond\n")

	a := c.ForArch("aarch64")
	check("aarch64 Support", a.Support, []string{"build-compare", "brp-check-suse", "post-build-checks", "qemu-linux-user"})
	m := a.MacroMap()
	check("macro pocket_version", m["pocket_version"], "1000")
	check("macro multi_line", m["multi_line"], "first \nsecond")
	check("macro _target_cpu", m["_target_cpu"], "aarch64")
	check("macro _with_check", m["_with_check"], "1")
}

func TestParseConfigRules(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		field      func(Config) any
		want       any
	}{
		{"keywords are case-insensitive", "PREINSTALL: a\npreinstall: b\nPreInstall: c", func(c Config) any { return c.Preinstall }, []string{"a", "b", "c"}},
		{"bang removes", "Support: a b c\nSupport: !b", func(c Config) any { return c.Support }, []string{"a", "c"}},
		{"bang star empties", "Support: a b\nSupport: !* d", func(c Config) any { return c.Support }, []string{"d"}},
		{"duplicates once", "Required: a b a", func(c Config) any { return c.Required }, []string{"a", "b"}},
		{"substitute replaced", "Substitute: a b\nSubstitute: a c d", func(c Config) any { return c.Substitute }, map[string][]string{"a": {"c", "d"}}},
		{"substitute removed", "Substitute: a b\nSubstitute: e f\nSubstitute: !a", func(c Config) any { return c.Substitute }, map[string][]string{"e": {"f"}}},
		{"release default", "Type: spec", func(c Config) any { return c.Release }, DefaultRelease},
		{"type guessed from rpm", "Preinstall: rpm bash", func(c Config) any { return c.Type + "/" + c.BinaryType }, "spec/rpm"},
		{"unknown kept", "Constraint: hardware:disk:size 4\nFoo: bar", func(c Config) any { return c.Other }, []string{"Constraint: hardware:disk:size 4", "Foo: bar"}},
		{"comments and blanks", "# Support: x\n\n  \nSupport: y", func(c Config) any { return c.Support }, []string{"y"}},
		{"macro in keyword line", "%define extra zlib-devel\nRequired: %{extra} %{?nothing} %{!?nothing:bzip2}", func(c Config) any { return c.Required }, []string{"zlib-devel", "bzip2"}},
		{"if string compare", "%if \"%{?_repository}\" == \"\"\nRequired: a\n%endif", func(c Config) any { return c.Required }, []string{"a"}},
		{"nested if false", "%if 0\n%if 1\nRequired: a\n%endif\n%else\nRequired: b\n%endif", func(c Config) any { return c.Required }, []string{"b"}},
		{"elif", "%if 0\nRequired: a\n%elif 1\nRequired: b\n%else\nRequired: c\n%endif", func(c Config) any { return c.Required }, []string{"b"}},
		{"macros block without end", "Required: a\nMacros:\n%foo 1\nRequired: b", func(c Config) any { return c.Required }, []string{"a"}},
		{"CRLF", "Required: a\r\nSupport: b\r\n", func(c Config) any { return c.Support }, []string{"b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseConfig(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.field(c); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestParseConfigErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"%if 1\nRequired: a", "unclosed %if"},
		{"Required: a\n%endif", "line 2: %endif without %if"},
		{"%else", "line 1: %else without %if"},
		{"%if (1", "line 1: bad %if expression"},
		{"%if 1 ==", "line 1: bad %if expression"},
		{"Required: a\nFromScratch:", "line 2: FromScratch directive must come first"},
	} {
		_, err := ParseConfig(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseConfig(%q) error = %v, want %q", tc.text, err, tc.want)
		}
	}
	if _, err := ParseConfig("# comment\nFromScratch:\nRequired: a"); err != nil {
		t.Errorf("FromScratch first: %v", err)
	}
}

func mustConfig(t testing.TB, project, repository, text string) Config {
	t.Helper()
	c, err := ParseConfig(text)
	if err != nil {
		t.Fatal(err)
	}
	c.Project, c.Repository = project, repository
	return c
}

func TestMergeOrder(t *testing.T) {
	base := mustConfig(t, "Pocket:1.0", "standard", "Type: spec\nSupport: a b c\nPrefer: base1\nRelease: <CI_CNT>.<B_CNT>\nSubstitute: x y\nMacros:\n%base 1\n:Macros\n")
	mid := mustConfig(t, "devel:tools", "Pocket_1.0", "Support: d\nPrefer: mid1\nMacros:\n%mid 2\n")
	own := mustConfig(t, "home:alice", "Pocket_1.0", "Support: !b\nPrefer: own1\nRelease: 7\nSubstitute: x z\n%if \"%_repository\" == \"Pocket_1.0\"\nRequired: extra\n%endif\nMacros:\n%own 3\n")
	m := Merge([]Config{own, mid, base}) // path order: own project first
	if want := []string{"a", "c", "d"}; !reflect.DeepEqual(m.Support, want) {
		t.Errorf("Support = %v, want %v (own's !b removes base's b)", m.Support, want)
	}
	if want := []string{"base1", "mid1", "own1"}; !reflect.DeepEqual(m.Prefer, want) {
		t.Errorf("Prefer = %v, want base first", m.Prefer)
	}
	if m.Release != "7" || !reflect.DeepEqual(m.Substitute["x"], []string{"z"}) {
		t.Errorf("own config does not win: Release %q, Substitute %v", m.Release, m.Substitute)
	}
	if !reflect.DeepEqual(m.Required, []string{"extra"}) {
		t.Errorf("Required = %v: %%_repository not the own repository", m.Required)
	}
	if m.Project != "home:alice" || m.Type != "spec" {
		t.Errorf("Project %q Type %q", m.Project, m.Type)
	}
	macros := m.MacroMap()
	for k, v := range map[string]string{"base": "1", "mid": "2", "own": "3", "_project": "home:alice", "_repository": "Pocket_1.0"} {
		if macros[k] != v {
			t.Errorf("macro %s = %q, want %q", k, macros[k], v)
		}
	}
	want := `%define _project home:alice

### from Pocket:1.0
%define _repository standard
Type: spec
Support: a b c
Prefer: base1
Release: <CI_CNT>.<B_CNT>
Substitute: x y
Macros:
%base 1
:Macros

### from devel:tools
%define _repository Pocket_1.0
Support: d
Prefer: mid1

### from home:alice
%define _repository Pocket_1.0
Support: !b
Prefer: own1
Release: 7
Substitute: x z
%if "%_repository" == "Pocket_1.0"
Required: extra
%endif

Macros:

### from devel:tools
%define _repository Pocket_1.0
%mid 2

### from home:alice
%define _repository Pocket_1.0
%own 3
`
	if got := m.Render(); got != want {
		t.Errorf("Render:\n%s\nwant:\n%s", got, want)
	}
}

func TestMergeFromScratch(t *testing.T) {
	base := mustConfig(t, "Pocket:1.0", "standard", "Support: a\nRequired: gcc")
	own := mustConfig(t, "home:bob", "fresh", "FromScratch:\nRequired: clang")
	m := Merge([]Config{own, base})
	if len(m.Support) != 0 || !reflect.DeepEqual(m.Required, []string{"clang"}) {
		t.Errorf("FromScratch kept the base: Support %v Required %v", m.Support, m.Required)
	}
	if strings.Contains(m.Render(), "gcc") {
		t.Errorf("Render shows the discarded base:\n%s", m.Render())
	}
}

func TestMacroExpansionLimits(t *testing.T) {
	// Self-reference and doubling must stop, not hang or explode.
	c, err := ParseConfig("%define a %a%a%a%a\n%define b %{b}x\nRequired: %a %b")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Join(c.Required, " ")); n > 2*maxMacroOutput {
		t.Errorf("expansion produced %d bytes", n)
	}
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{baseConfig, "", "Macros:\n", ":Macros", "%if", "%if 1\n%else\n%endif", "%define a %{a}",
		"%if \"a\" == \"b\" || !(1 < 2) && -3\nSupport: x\n%endif", "Substitute: !*", "Prefer: -a b:c -d:e",
		"FromScratch:\n", "%{?a:%{!?b:c}}", "%ifarch x86_64\n%elifarch aarch64\n%endif", "%global g %{g}1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ParseConfig(text)
		if err != nil {
			return
		}
		c.Project, c.Repository = "p", "r"
		m := Merge([]Config{c, c})
		_ = m.Render()
		_ = m.ForArch("x86_64").MacroMap()
	})
}
