package specfile

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestFailure(t *testing.T) {
	cases := []struct {
		name string
		body string   // sections after the preamble
		want *Failure // Line counts from the first line of body
	}{
		{"none", "%build\nmake\n%check\nmake check\n", nil},
		{"exit 1 in check", "%build\nmake\n%check\nmake check\nexit 1\n",
			&Failure{"%check", 5, "exit 1", 1, ""}},
		{"exit 3 in build", "%build\nexit 3\n", &Failure{"%build", 2, "exit 3", 3, ""}},
		{"exit 256 is 0", "%build\nexit 256\n%check\nfalse\n", &Failure{Section: "%check", Line: 4, Text: "false", Status: 1}},
		{"exit -1", "%build\nexit -1\n", &Failure{Section: "%build", Line: 2, Text: "exit -1", Status: 255}},
		{"false", "%install\n/bin/false\n", &Failure{Section: "%install", Line: 2, Text: "/bin/false", Status: 1}},
		{"usr bin false", "%install\n/usr/bin/false --flag\n", &Failure{Section: "%install", Line: 2, Text: "/usr/bin/false --flag", Status: 1}},
		{"order of sections", "%check\nexit 2\n%build\nexit 4\n", &Failure{Section: "%build", Line: 4, Text: "exit 4", Status: 4}},
		{"prep first", "%build\nexit 4\n%prep\nfalse\n", &Failure{Section: "%prep", Line: 4, Text: "false", Status: 1}},
		{"or chain", "%check\nmake check || exit 1\n", nil},
		{"and chain", "%check\ntest -f x && exit 1\n", nil},
		{"or continues line", "%check\nmake check ||\n  exit 1\n", nil},
		{"after semicolon", "%check\necho broken; exit 1\n", &Failure{Section: "%check", Line: 2, Text: "echo broken; exit 1", Status: 1}},
		{"before semicolon", "%check\nexit 5; echo never\n", &Failure{Section: "%check", Line: 2, Text: "exit 5; echo never", Status: 5}},
		{"pipeline", "%check\nfalse | tee log\n", nil},
		{"background", "%check\nfalse &\n", nil},
		{"negated", "%check\n! false\n", nil},
		{"if block", "%check\nif [ -f x ]; then\n  exit 1\nfi\n", nil},
		{"if one line", "%check\nif true; then exit 1; fi\n", nil},
		{"after if block", "%check\nif true; then\n  echo\nfi\nexit 7\n", &Failure{Section: "%check", Line: 5, Text: "exit 7", Status: 7}},
		{"loop", "%check\nfor t in a b; do\n  false\ndone\nwhile read x; do exit 1; done < list\n", nil},
		{"case", "%check\ncase $x in\n  a) exit 1;;\n  *) false ;;\nesac\n", nil},
		{"group after or", "%check\nmake check || { cat log; exit 1; }\n", nil},
		{"subshell", "%check\n(cd t && exit 1)\n", nil},
		{"function", "%check\nfail() {\n  exit 1\n}\nf2() { exit 1; }\n", nil},
		{"function keyword", "%check\nfunction fail {\n  exit 1\n}\n", nil},
		{"quoted", "%check\necho 'exit 1; false'\necho \"; exit 1\"\n", nil},
		{"comment", "%check\necho ok # ; exit 1\n", nil},
		{"heredoc", "%check\ncat > t.sh <<EOF\nexit 1\nfalse\nEOF\n", nil},
		{"heredoc quoted tabs", "%check\ncat > t.sh <<-'END'\n\texit 1\n\tEND\nexit 9\n", &Failure{Section: "%check", Line: 5, Text: "exit 9", Status: 9}},
		{"command substitution", "%check\nx=$(false; exit 1)\n", nil},
		{"exit 0 stops section", "%check\nexit 0\nexit 1\n%install\nexit 2\n", &Failure{Section: "%install", Line: 5, Text: "exit 2", Status: 2}},
		{"bare exit stops section", "%check\nexit\nfalse\n", nil},
		{"set +e", "%check\nset +e\nfalse\nset -e\nfalse\n", &Failure{Section: "%check", Line: 5, Text: "false", Status: 1}},
		{"set +e keeps exit", "%check\nset +ex\nexit 3\n", &Failure{Section: "%check", Line: 3, Text: "exit 3", Status: 3}},
		{"set -o errexit", "%check\nset +o errexit\nfalse\n", nil},
		{"exit with variable", "%check\nexit $rc\n", nil},
		{"continued line", "%check\nmake check \\\n  || exit 1\n", nil},
		{"macro in check", "%define fail exit 4\n%check\n%fail\n", &Failure{Section: "%check", Line: 3, Text: "exit 4", Status: 4}},
		{"2>&1", "%check\nmake check 2>&1 >log; false\n", &Failure{Section: "%check", Line: 2, Text: "make check 2>&1 >log; false", Status: 1}},
		{"patch ok", "%prep\n%setup -q\n%patch -P 0 -p1\n%patch 1\n%patch0 -p1\n", nil},
		{"patch missing", "%prep\n%patch -P 3 -p1\n", &Failure{"%prep", 2, "%patch -P 3 -p1", 1, "No patch number 3"}},
		{"patch obsolete form missing", "%prep\n%patch7\n", &Failure{"%prep", 2, "%patch7", 1, "No patch number 7"}},
		{"patch -P glued", "%prep\n%patch -P1 -P5\n", &Failure{"%prep", 2, "%patch -P1 -P5", 1, "No patch number 5"}},
		{"patch in build is text", "%build\n%patch -P 3\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prefix := header + "Patch0: a.patch\nPatch1: b.patch\n%description\nd\n"
			s := mustParse(t, prefix+c.body, Options{})
			got := s.Failure()
			want := c.want
			if want != nil {
				w := *want
				w.Line += strings.Count(prefix, "\n")
				if w.Msg == "" {
					w.Msg = "Bad exit status from /var/tmp/rpm-tmp (" + w.Section + ")"
				}
				want = &w
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Failure() = %+v, want %+v", got, want)
			}
		})
	}
}

func TestFailurePatchOne(t *testing.T) {
	s := mustParse(t, header+"Patch1: b.patch\n%description\nd\n%prep\n%patch\n", Options{})
	if f := s.Failure(); f == nil || f.Msg != "No patch number 0" {
		t.Errorf("bare %%patch without Patch0: %+v", f)
	}
}

// TestFailureAfterJSON checks that a Spec stored as JSON and read back (as the farm keeps its
// records) judges its build the same way.
func TestFailureAfterJSON(t *testing.T) {
	s := mustParse(t, header+"Patch3: c.patch\n%description\nd\n%prep\n%patch -P 3\n%patch -P 4\n", Options{})
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Spec
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if got, want := back.Failure(), s.Failure(); !reflect.DeepEqual(got, want) || want == nil || want.Msg != "No patch number 4" {
		t.Errorf("after JSON: %+v, before: %+v", got, want)
	}
}

// TestBuildError checks what rpmbuild refuses once it has read the whole spec: the build fails
// before any script, with rpm's message.
func TestBuildError(t *testing.T) {
	cases := []struct{ text, want string }{
		{"Name: foo\nVersion: 1\nRelease: 1\nLicense: MIT\n%description\nd\n", "Summary field must be present in package: foo"},
		{"Name: foo\nVersion: 1\nRelease: 1\nSummary: s\n%description\nd\n", "License field must be present in package: foo"},
		{header, "Package has no %description: foo"},
		{header + "%description\nd\n%package sub\n%description sub\ne\n", "Summary field must be present in package: foo-sub"},
		{header + "%description\nd\n%package sub\nSummary: s\n", "Package has no %description: foo-sub"},
		{header + "%description\nd\n%package sub\nSummary: s\n%description -l de sub\nx\n%build\nexit 1\n", ""},
		{header + "%description\nd\n%package sub\nSummary: s\n%description sub\n%build\nexit 1\n", ""},
	}
	for _, c := range cases {
		s := mustParse(t, c.text, Options{})
		if s.BuildError != c.want {
			t.Errorf("%q: BuildError = %q, want %q", c.text, s.BuildError, c.want)
		}
		f := s.Failure()
		if c.want != "" && (f == nil || *f != Failure{Status: 1, Msg: c.want}) {
			t.Errorf("%q: Failure = %+v", c.text, f)
		}
		if c.want == "" && (f == nil || f.Section != "%build") {
			t.Errorf("%q: Failure = %+v, want the %%build line", c.text, f)
		}
	}
}
