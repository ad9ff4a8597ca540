package specfile

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// rpmspec runs the real rpmspec on a spec file, or skips the test when rpm is not installed.
func rpmspec(t *testing.T, args ...string) (string, error) {
	t.Helper()
	if _, err := exec.LookPath("rpmspec"); err != nil {
		t.Skip("rpmspec is not installed: the comparison with real rpm needs it")
	}
	out, err := exec.Command("rpmspec", args...).CombinedOutput()
	return string(out), err
}

// TestAgainstRPM parses the corpus with the real rpmspec and with Parse and compares what the
// farm uses: the packages with their version and arch, their Requires and Provides (rpm's own
// plus the ones it adds), the BuildRequires and the descriptions.
func TestAgainstRPM(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.spec")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			out, err := rpmspec(t, "-q", "--define", "dist .pocket1", "--define", "pocket_version 100",
				"--qf", "PKG %{name} %{evr} %{arch}\n[R %{requirenevrs}\n][P %{providenevrs}\n]D %{description}\n", f)
			if err != nil {
				t.Fatalf("rpmspec: %v\n%s", err, out)
			}
			data, _ := os.ReadFile(f)
			s, err := Parse(data, corpusOptions("x86_64"))
			if err != nil {
				t.Fatal(err)
			}
			var ours []string
			for _, p := range s.Packages {
				ours = append(ours, "PKG "+p.Name+" "+p.EVR()+" "+p.Arch)
				var deps []string
				for _, d := range p.Requires {
					deps = append(deps, "R "+d.String())
				}
				for _, d := range p.AllProvides() {
					deps = append(deps, "P "+d.String())
				}
				slices.Sort(deps)
				ours = append(ours, slices.Compact(deps)...)
				ours = append(ours, "D "+p.Description)
			}
			var theirs, deps []string
			for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				switch {
				case strings.HasPrefix(l, "R ") || strings.HasPrefix(l, "P "):
					deps = append(deps, l)
				default:
					slices.Sort(deps)
					theirs = append(theirs, slices.Compact(deps)...)
					deps = nil
					theirs = append(theirs, l)
				}
			}
			if strings.Join(ours, "\n") != strings.Join(theirs, "\n") {
				t.Errorf("ours:\n%s\nrpm:\n%s", strings.Join(ours, "\n"), strings.Join(theirs, "\n"))
			}

			out, err = rpmspec(t, "-q", "--buildrequires", "--define", "dist .pocket1", "--define", "pocket_version 100", f)
			if err != nil {
				t.Fatalf("rpmspec: %v\n%s", err, out)
			}
			var brs []string
			for _, d := range s.BuildRequires {
				brs = append(brs, d.String())
			}
			slices.Sort(brs)
			if got, want := strings.Join(brs, "\n"), strings.TrimSpace(out); got != want {
				t.Errorf("BuildRequires:\n%s\nrpm:\n%s", got, want)
			}
		})
	}
}

// TestErrorsAgainstRPM checks that Parse words its errors as rpmbuild does: for each broken
// spec, rpm's first error line (without "error: " and the file name rpm adds to some) equals
// ours, but for the line number the farm adds where rpm gives none. The cases are those where
// rpm 4.18 to 4.20 agree.
func TestErrorsAgainstRPM(t *testing.T) {
	cases := []string{
		"Version: 1\nRelease: 1\n",
		"Name: foo\nRelease: 1\n%description\n",
		"Name: foo\nVersion: 1\n",
		header + "\n\nFoo: bar\n",
		header + "just text\n",
		header + "URL:\n",
		"Name: foo bar\n",
		"Name: foo\nVersion: 1.0-2\n",
		"Name: foo!\n",
		header + "Epoch: x\n",
		header + "BuildRequires: gcc >=\n",
		header + "Requires: -foo\n",
		header + "Requires: foo = 1.0-2-3\n",
		header + "Provides: (a or b)\n",
		header + "BuildRequires: (a or b\n",
		header + "Obsoletes: /bin/foo\n",
		header + "Requires(bogus): a\n",
		header + "Sourcex: a\n",
		header + "Docdir: doc\n",
		header + "%package sub\nBuildArch: x86_64\n",
		header + "BuildArch: noarch\nBuildArch: noarch\n",
		header + "%if 1\n%if 0\n%endif\n",
		header + "%endif\n",
		header + "%else\n",
		header + "%if 1\n%else\n%else\n%endif\n",
		header + "%define loop %{loop}\nSummary: %{loop}\n",
		header + "%{error:this spec needs foo}\n",
		header + "%description\n%{?nosuch:\nabc\n",
		header + "%description\nd\n%build\na\n%build\nb\n",
		header + "%package\n",
		header + "%package a b\n",
		header + "%package -n !x\n",
		header + "%files sub\n",
		header + "%description -n bar\n",
		header + "%files -x\n",
		header + "%description\nd\n%post -p sh\n",
		header + "%description\nd\n%post\n%post\n",
		header + "%define 1x y\n",
		header + "%define x\n",
	}
	dir := t.TempDir()
	for i, text := range cases {
		name := filepath.Join(dir, "case"+itoa(i)+".spec")
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _ := rpmspec(t, "-P", name)
		rpmErr := ""
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "error: ") {
				rpmErr = strings.TrimPrefix(strings.TrimPrefix(l, "error: "), name+": ")
				break
			}
		}
		// Where rpm names no line (%{error:…}, a bad %package line), the farm still does.
		_, err := Parse([]byte(text), Options{})
		var pe *Error
		if errors.As(err, &pe) && pe.Line > 0 && !strings.HasPrefix(rpmErr, "line ") {
			err = errors.New(pe.Msg)
		}
		if err == nil || err.Error() != rpmErr {
			t.Errorf("%q:\n ours %v\n rpm  %s", text, err, rpmErr)
		}
	}
}

// TestMacrosAgainstRPM expands the macro and conditional fixtures in testdata/rpm (each puts
// its cases in its %description) with rpm and with Parse.
func TestMacrosAgainstRPM(t *testing.T) {
	files, _ := filepath.Glob("testdata/rpm/*.spec")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			out, err := rpmspec(t, "-q", "--define", "_topdir /home/abuild/rpmbuild", "--qf", "%{description}", f)
			if err != nil {
				t.Fatalf("rpmspec: %v\n%s", err, out)
			}
			data, _ := os.ReadFile(f)
			s, err := Parse(data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Packages[0].Description; got != out {
				t.Errorf("ours:\n%q\nrpm:\n%q", got, out)
			}
		})
	}
}
