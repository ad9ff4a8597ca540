package specfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary specs to Parse: it must never panic or hang, every error must be an
// *Error, and a spec that parses must have its required fields and survive Failure and Excluded.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.spec")
	broken, _ := filepath.Glob("testdata/broken/*.spec")
	fixtures, _ := filepath.Glob("testdata/rpm/*.spec")
	for _, name := range append(append(files, broken...), fixtures...) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, "x86_64")
	}
	for _, s := range []string{
		header + "%define a %{b}\n%define b %{a}\n%description\n%a\n",
		header + "%if 1\n%elif 0\n%else\n%endif\n%ifarch %{ix86}\n%endif\n",
		header + "%define f(a:b) %{-a*} %1 %#\n%build\n%f -a x y z\n%{f:q}\n",
		header + "%global g %[1 ? \"a\" : \"b\"]\n%bcond t 1\n%check\n%{?with_t:exit 1}\n",
		header + "Requires: (a or (b and c)) d >= 1:2-3\n%package -n x\n%files -n x -f l\n%doc a\n",
		header + "%build\ncat <<EOF\nexit 1\nEOF\nif x; then { false; }; fi\n",
		header + "%prep\n%patch -P 9\n%{lua: x}\n%(true)\n%{expand:%%{name}}\n",
		"Name: a\\\nVersion: %{\n",
		"%{!?x:%global x %{x}%{x}}%{x}",
	} {
		f.Add([]byte(s), "aarch64")
	}
	f.Fuzz(func(t *testing.T, data []byte, arch string) {
		if len(data) > 64<<10 || len(arch) > 32 {
			return // the caller bounds spec size
		}
		s, err := Parse(data, Options{Arch: arch, Macros: map[string]string{"dist": ".pf"}})
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is a %T, not *Error", err, err)
			}
			if pe.Msg == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if s.Name == "" || s.Version == "" || s.Release == "" || len(s.Packages) == 0 {
			t.Fatalf("parsed spec without NVR: %+v", s)
		}
		s.Failure()
		s.Excluded(arch)
		for _, p := range s.Packages {
			p.AllProvides()
		}
	})
}

// FuzzParseDeps checks that ParseDeps never panics and that what it accepts renders back to a
// list it parses the same way.
func FuzzParseDeps(f *testing.F) {
	for _, s := range []string{
		"a, b >= 1.2 c = 2:3-4", "(a or b)", "(pkgconfig(x) >= 1 if (b and c) else d)", "foo >=",
		"/usr/bin/sh", "a,,b", "(a", "x = 1..2", "((((a))))", "é <= 1~rc^2", "(a (b))", "(0(() )",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		deps, err := ParseDeps(s)
		if err != nil {
			return
		}
		var parts []string
		for _, d := range deps {
			if d.Name == "" || (d.Op == "") != (d.Version == "") {
				t.Fatalf("bad dep %#v from %q", d, s)
			}
			parts = append(parts, d.String())
		}
		again, err := ParseDeps(strings.Join(parts, ", "))
		if err != nil || len(again) != len(deps) {
			t.Fatalf("%q -> %q -> %v, %v", s, parts, again, err)
		}
		for i := range deps {
			if again[i] != deps[i] {
				t.Fatalf("%q: %#v became %#v", s, deps[i], again[i])
			}
		}
	})
}

// FuzzVercmp checks that Vercmp is an order: antisymmetric and reflexive.
func FuzzVercmp(f *testing.F) {
	for _, c := range rpmVercmpCases {
		f.Add(c.a, c.b)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		x, y := Vercmp(a, b), Vercmp(b, a)
		if x != -y || x < -1 || x > 1 {
			t.Fatalf("Vercmp(%q, %q) = %d but Vercmp(%q, %q) = %d", a, b, x, b, a, y)
		}
		if Vercmp(a, a) != 0 {
			t.Fatalf("Vercmp(%q, %q) != 0", a, a)
		}
		if e := EVRCompare(a, b); e != -EVRCompare(b, a) {
			t.Fatalf("EVRCompare(%q, %q) not antisymmetric", a, b)
		}
	})
}

// FuzzEvalExpr checks that expression evaluation never panics.
func FuzzEvalExpr(f *testing.F) {
	for _, s := range []string{"1 + 2 * (3 - 4) / 5", `"a" < "b" && v"1.0" > v"0.9"`, "0 ? 1/0 : !\"\"", "((((", "-", "1 ?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		_, _ = evalExpr(s)
	})
}
