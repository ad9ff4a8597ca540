package specfile

import (
	"errors"
	"strings"
	"testing"
)

// header is the smallest valid main preamble.
const header = "Name: foo\nVersion: 1.0\nRelease: 1\nSummary: Foo\nLicense: MIT\n"

func mustParse(t *testing.T, text string, opt Options) *Spec {
	t.Helper()
	s, err := Parse([]byte(text), opt)
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, text)
	}
	return s
}

func lineTexts(lines []Line) []string {
	var out []string
	for _, l := range lines {
		out = append(out, l.Text)
	}
	return out
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name string
		text string
		line int
		msg  string
	}{
		{"no name", "Version: 1\nRelease: 1\n", 0, "Name field must be present in package: (main package)"},
		{"no version", "Name: foo\nRelease: 1\n%description\n", 0, "Version field must be present in package: (main package)"},
		{"no release", "Name: foo\nVersion: 1\n", 0, "Release field must be present in package: (main package)"},
		{"empty spec", "", 0, "Name field must be present in package: (main package)"},
		{"unknown tag", header + "\n\nFoo: bar\n", 8, "Unknown tag: Foo: bar"},
		{"text in preamble", header + "just text\n", 6, "Unknown tag: just text"},
		{"empty tag", header + "URL:\n", 6, "Empty tag: URL:"},
		{"single token", "Name: foo bar\n", 1, "Tag takes single token only: Name: foo bar"},
		{"version dash", "Name: foo\nVersion: 1.0-2\n", 2, "Illegal char '-' (0x2d) in: Version: 1.0-2"},
		{"name char", "Name: foo!\n", 1, "Illegal char '!' (0x21) in: Name: foo!"},
		{"epoch", header + "Epoch: x\n", 6, "Epoch field must be an unsigned number: Epoch: x"},
		{"bad dep", header + "BuildRequires: gcc >=\n", 6, "Version required: BuildRequires: gcc >="},
		{"rich provides", header + "Provides: (a or b)\n", 6, "No rich dependencies allowed for this type: Provides: (a or b)"},
		{"obsoletes file", header + "Obsoletes: /bin/foo\n", 6, "Illegal char '/' (0x2f) in: Obsoletes: /bin/foo"},
		{"requires qualifier", header + "Requires(bogus): a\n", 6, "Bad Requirename: qualifiers: Requires(bogus): a"},
		{"source twice", header + "Source0: a\nSource0: b\n", 7, "source 0 defined multiple times"},
		{"source number", header + "Sourcex: a\n", 6, "Bad source number: Sourcex: a"},
		{"docdir", header + "Docdir: doc\n", 6, "Docdir must begin with '/': Docdir: doc"},
		{"sub buildarch", header + "%package sub\nBuildArch: x86_64\n", 7, "Only noarch subpackages are supported: BuildArch: x86_64"},
		{"duplicate buildarch", header + "BuildArch: noarch\nBuildArch: noarch\n", 7, "Duplicate BuildArch entry: BuildArch: noarch"},
		{"unclosed if", header + "%if 1\n%if 0\n%endif\n", 6, "Unclosed %if"},
		{"endif without if", header + "%endif\n", 6, "%endif with no %if"},
		{"else without if", header + "%else\n", 6, "%else with no %if"},
		{"else after else", header + "%if 1\n%else\n%else\n%endif\n", 8, "%else after %else"},
		{"elif after else", header + "%if 1\n%else\n%elif 1\n%endif\n", 8, "%elif after %else"},
		{"elif without if", header + "%elif 1\n", 6, "%elif with no %if"},
		{"extra tokens", header + "%if 1\n%endif foo\n", 7, "extra tokens at the end of %endif directive: %endif foo"},
		{"bad condition", header + "%if suse == suse\n%endif\n", 6, "bad %if condition: suse == suse: bare words are no longer supported"},
		{"empty condition", header + "%if %{?nosuch}\n%endif\n", 6, "bad %if condition: %{?nosuch}: unexpected end of expression"},
		{"ifarch without arch", header + "%ifarch\n%endif\n", 6, "Argument expected for %ifarch"},
		{"include", header + "%include other.inc\n", 6, "%include is not supported by the build farm: %include other.inc"},
		{"self macro", header + "%define loop %{loop}\nSummary: %{loop}\n", 7, "Too many levels of recursion in macro expansion"},
		{"error macro", header + "%{error:this spec needs foo}\n", 6, "this spec needs foo"},
		{"unclosed macro", header + "%description\n%{?nosuch:\nabc\n", 7, "unclosed macro or bad line continuation"},
		{"second build", header + "%build\na\n%build\nb\n", 8, "second %build"},
		{"bad build option", header + "%build -x\n", 6, "Bad %build option -x: %build -x"},
		{"package exists", header + "%package sub\n%package sub\n", 7, "%package sub: package foo-sub already exists"},
		{"package spec", header + "%package\n", 6, "Bad package specification: %package"},
		{"package two names", header + "%package a b\n", 6, "Bad package specification: %package a b"},
		{"package char", header + "%package -n !x\n", 6, "Illegal char '!' (0x21) in: %package -n !x"},
		{"files of nothing", header + "%files sub\n", 6, "%files sub: package foo-sub does not exist"},
		{"description of nothing", header + "%description -n bar\n", 6, "%description -n bar: package bar does not exist"},
		{"too many names", header + "%package a\n%files a b\n", 7, "Too many names: %files a b"},
		{"bad files option", header + "%files -x\n", 6, "Bad option -x: %files -x"},
		{"files -f without file", header + "%files -f\n", 6, "Bad option -f: %files -f"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.text), Options{})
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if pe.Line != c.line || !strings.Contains(pe.Msg, c.msg) {
				t.Errorf("err = line %d %q, want line %d %q", pe.Line, pe.Msg, c.line, c.msg)
			}
			if c.line > 0 && !strings.HasPrefix(err.Error(), "line ") {
				t.Errorf("Error() = %q, want the line first", err.Error())
			}
		})
	}
}
