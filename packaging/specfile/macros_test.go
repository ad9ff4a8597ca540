package specfile

import (
	"strings"
	"testing"
)

// testExpander is an expander with the defaults for arch, a package "foo 1.2-3" and the lines
// of defs run through it first (as %define/%global lines of a spec would be).
func testExpander(t *testing.T, arch string, defs ...string) *expander {
	t.Helper()
	e := newExpander(1 << 10)
	e.loadDefaults(arch, map[string]string{"%dist": ".pocket1"})
	e.define("name", "foo", nil)
	e.define("version", "1.2", nil)
	e.define("release", "3", nil)
	for _, d := range defs {
		if _, err := e.Expand(d); err != nil {
			t.Fatalf("%q: %v", d, err)
		}
	}
	return e
}

func TestExpand(t *testing.T) {
	cases := []struct {
		name string
		defs []string
		in   string
		want string
	}{
		{"plain text", nil, "no macros here", "no macros here"},
		{"percent escape", nil, "100%% done", "100% done"},
		{"tag macros", nil, "%{name}-%{version}-%{release}", "foo-1.2-3"},
		{"unbraced", nil, "%name-%version", "foo-1.2"},
		{"undefined stays", nil, "%{nosuch} %nosuch", "%{nosuch} %nosuch"},
		{"trailing percent", nil, "50%", "50%"},
		{"conditional defined", nil, "a%{?dist}b", "a.pocket1b"},
		{"conditional undefined", nil, "a%{?nosuch}b", "ab"},
		{"unbraced conditional", nil, "a%?dist-%?nosuch", "a.pocket1-"},
		{"conditional text", nil, "%{?dist:yes} %{?nosuch:yes}", "yes "},
		{"negated text", nil, "%{!?dist:no} %{!?nosuch:no}", " no"},
		{"negated bare", nil, "[%{!?nosuch}][%{!?dist}]", "[][]"},
		{"define lazily", []string{"%define v %{version}", "%define version 9"}, "%{v}", "9"},
		{"global eagerly", []string{"%global v %{version}", "%define version 9"}, "%{v}", "1.2"},
		{"define in conditional", []string{"%{!?pyver: %global pyver 3.11}"}, "%{pyver}", "3.11"},
		{"define keeps existing", []string{"%global pyver 2.7", "%{!?pyver: %global pyver 3.11}"}, "%{pyver}", "2.7"},
		{"multi-line define", []string{"%define two one\\\ntwo"}, "%{two}", "one\ntwo"},
		{"braced define body", []string{"%define grp {a b}"}, "[%{grp}]", "[a b]"},
		{"undefine pops", []string{"%define x 1", "%define x 2", "%undefine x"}, "%{x}", "1"},
		{"undefine all", []string{"%define x 1", "%undefine x"}, "%{?x:set}", ""},
		{"dnl", nil, "a%dnl comment\nb", "ab"},
		{"expand", []string{"%define inner %%{name}"}, "%{expand:%{inner}}", "foo"},
		{"basename dirname suffix", nil, "%{basename:/a/b.tar.gz} %{dirname:/a/b} %{suffix:x.gz}", "b.tar.gz /a gz"},
		{"upper lower len", nil, "%{upper:ab} %{lower:AB} %{len:abc}", "AB ab 3"},
		{"shrink quote", nil, "%{shrink:  a   b } %{quote:x y}", "a b x y"},
		{"url2path", nil, "%{url2path:https://example.org/a/b.tar.gz}", "/a/b.tar.gz"},
		{"defined", nil, "%{defined name} %{undefined name} %{defined nosuch}", "1 0 0"},
		{"expression", nil, "%[1 + 2 * 3] %[\"a\" + \"b\"] %[v\"%{version}\" < v\"1.10\"]", "7 ab 1"},
		{"shell kept", nil, "%(echo hi) x", "%(echo hi) x"},
		{"lua kept", nil, "%{lua: print(1)}", "%{lua: print(1)}"},
		{"dirs x86_64", nil, "%{_bindir} %{_libdir} %{_datadir} %{_mandir} %{_sysconfdir} %{_includedir} %{_prefix} %{_docdir}",
			"/usr/bin /usr/lib64 /usr/share /usr/share/man /etc /usr/include /usr /usr/share/doc/packages"},
		{"buildroot", nil, "%{buildroot}", "/home/abuild/rpmbuild/BUILDROOT/foo-1.2-3.x86_64"},
		{"arch macros", nil, "%{_arch} %{_target_cpu} %{?_isa}", "x86_64 x86_64 (x86-64)"},
		{"smp", nil, "make %{?_smp_mflags}", "make -j4"},
		{"make_build", nil, "%make_build V=1", "/usr/bin/make -j4 V=1"},
		{"make_install", nil, "%make_install", `/usr/bin/make install DESTDIR=/home/abuild/rpmbuild/BUILDROOT/foo-1.2-3.x86_64 INSTALL="/usr/bin/install -p"`},
		{"cmake", nil, "%cmake -DFOO=1", "/usr/bin/cmake -S . -B build -DCMAKE_INSTALL_PREFIX:PATH=/usr -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIB_INSTALL_DIR:PATH=/usr/lib64 -DFOO=1"},
		{"optflags", nil, "%{optflags}", defaultMacros["optflags"]},
		{"ix86", nil, "%{ix86}", "i386 i486 i586 i686 pentium3 pentium4 athlon geode"},
		{"arm", nil, "%{arm}", archMacros["arm32"]},
		{"setup stays", nil, "%setup -q -n foo", "%setup -q -n foo"},
		{"patch stays", nil, "%patch -P 1 -p1", "%patch -P 1 -p1"},
		{"nil", nil, "a%{nil}b", "ab"},
		{"source ref", []string{"%define SOURCE1 /src/x.conf"}, "%{S:1} %{SOURCE1}", "/src/x.conf /src/x.conf"},
		{"parametric args", []string{"%define greet(n:) hi %1 %2 [%*] #%# %{-n:n=%{-n*}} %0"}, "%greet -n 5 a b\nnext", "hi a b [a b] #2 n=5 greet\nnext"},
		{"parametric braced", []string{"%define twice() %1%1"}, "x%{twice ab}y", "xababy"},
		{"parametric colon", []string{"%define twice() %1%1"}, "%{twice:a b}", "a ba b"},
		{"parametric option flag", []string{"%define f(q) %{-q:quiet}%{!-q:loud}"}, "%f -q\n%f", "quiet\nloud"},
		{"args expanded", []string{"%define first() %1"}, "%first %{name} x", "foo"},
		{"with bcond_with", []string{"%bcond_with tests"}, "%{with tests}%{without tests}", "01"},
		{"with bcond_without", []string{"%bcond_without tests"}, "%{with tests}%{without tests}", "10"},
		{"bcond default on", []string{"%bcond docs 1"}, "%{with docs}", "1"},
		{"bcond default off", []string{"%bcond docs 0"}, "%{with docs}", "0"},
		{"bcond braced", []string{"%define feat docs", "%{bcond_without %{feat}}"}, "%{with docs}", "1"},
		{"echo and warn", nil, "a%{echo:x}%{warn:y}b\n%warn z\nc", "ab\n\nc"},
		{"bcond_without overridden", []string{"%define _without_tests 1", "%bcond_without tests"}, "%{with tests}", "0"},
		{"bcond_with overridden", []string{"%define _with_tests 1", "%bcond_with tests"}, "%{with tests}", "1"},
		{"empty braces", nil, "%{}", "%{}"},
		{"backslash in braces", nil, "%{?nosuch:a\\}b}", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := testExpander(t, "x86_64", c.defs...)
			got, err := e.Expand(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("Expand(%q) =\n%q, want\n%q", c.in, got, c.want)
			}
		})
	}
}

func TestExpandArch(t *testing.T) {
	cases := []struct{ arch, libdir, isa string }{
		{"x86_64", "/usr/lib64", "(x86-64)"},
		{"aarch64", "/usr/lib64", "(aarch-64)"},
		{"i586", "/usr/lib", "(x86-32)"},
		{"armv7l", "/usr/lib", "(arm-32)"},
		{"ppc64le", "/usr/lib64", "(ppc-64)"},
		{"s390x", "/usr/lib64", "(s390-64)"},
		{"riscv64", "/usr/lib64", "(riscv-64)"},
		{"m68k", "/usr/lib", ""},
	}
	for _, c := range cases {
		t.Run(c.arch, func(t *testing.T) {
			e := testExpander(t, c.arch)
			got, err := e.Expand("%{_libdir}|%{?_isa}|%{_arch}")
			if err != nil {
				t.Fatal(err)
			}
			if want := c.libdir + "|" + c.isa + "|" + c.arch; got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

func TestExpandErrors(t *testing.T) {
	cases := []struct {
		name string
		defs []string
		in   string
		want string
	}{
		{"self reference", []string{"%define loop %{loop}x"}, "%{loop}", "Too many levels of recursion"},
		{"mutual reference", []string{"%define a %{b}", "%define b %{a}"}, "%a", "Too many levels of recursion"},
		{"global of itself", []string{"%global g %{g}%{g}"}, "%{g}", "Too many levels of recursion"},
		{"unterminated brace", nil, "%{name", "Unterminated {: %{name"},
		{"unterminated clipped", nil, "%{name\n" + strings.Repeat("x", 200), "Unterminated {: %{name…"},
		{"unterminated expression", nil, "%[1 +", "Unterminated ["},
		{"error macro", nil, "%{error:needs foo}", "needs foo"},
		{"error unbraced", nil, "%error needs %{name}\nnext", "needs foo"},
		{"error empty", nil, "%error", "%error"},
		{"bad expression", nil, "%[1 +]", "unexpected end of expression"},
		{"empty define body", nil, "%define x", "Macro %x has empty body"},
		{"illegal name", nil, "%define 1x y", "has illegal name (%define)"},
		{"short name", nil, "%define _ y", "has illegal name (%define)"},
		{"builtin name", nil, "%define expand y", "Macro %expand is a built-in (%define)"},
		{"global illegal", nil, "%global -x y", "(%global)"},
		{"unterminated opts", nil, "%define f(ab body", "has unterminated opts"},
		{"unterminated body", nil, "%define f %{a", "has unterminated body"},
		{"unknown option", []string{"%define f(a) x"}, "%f -b", "Unknown option b in f(a)"},
		{"option without value", []string{"%define f(a:) x"}, "%f -a", "Option -a requires an argument"},
		{"bcond without name", nil, "%bcond_with", "missing argument"},
		{"bcond without default", nil, "%bcond foo", "missing default value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := testExpander(t, "x86_64", c.defs...)
			_, err := e.Expand(c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Expand(%q) error = %v, want it to contain %q", c.in, err, c.want)
			}
		})
	}
}

func TestExpandBounds(t *testing.T) {
	t.Run("doubling", func(t *testing.T) {
		defs := []string{"%define a0 xxxxxxxxxxxxxxxx"}
		for i := 1; i < 30; i++ {
			defs = append(defs, "%define a"+itoa(i)+" %{a"+itoa(i-1)+"}%{a"+itoa(i-1)+"}")
		}
		e := testExpander(t, "x86_64", defs...)
		if _, err := e.Expand("%{a29}"); err == nil || !strings.Contains(err.Error(), "too large") {
			t.Errorf("err = %v, want too large", err)
		}
	})
	t.Run("empty many times", func(t *testing.T) {
		defs := []string{"%define a0 %{nil}"}
		for i := 1; i < 30; i++ {
			defs = append(defs, "%define a"+itoa(i)+" %{a"+itoa(i-1)+"}%{a"+itoa(i-1)+"}%{a"+itoa(i-1)+"}")
		}
		e := testExpander(t, "x86_64", defs...)
		if _, err := e.Expand("%{a29}"); err == nil || !strings.Contains(err.Error(), "too complex") {
			t.Errorf("err = %v, want too complex", err)
		}
	})
	t.Run("deep but legal", func(t *testing.T) {
		defs := []string{"%define d0 end"}
		for i := 1; i <= MaxMacroDepth-1; i++ {
			defs = append(defs, "%define d"+itoa(i)+" %{d"+itoa(i-1)+"}")
		}
		e := testExpander(t, "x86_64", defs...)
		if got, err := e.Expand("%{d" + itoa(MaxMacroDepth-1) + "}"); err != nil || got != "end" {
			t.Errorf("got %q, %v", got, err)
		}
	})
}
