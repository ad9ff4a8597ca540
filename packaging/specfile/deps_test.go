package specfile

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseDeps(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []Dep
	}{
		{"empty", "", nil},
		{"one", "gcc", []Dep{{Name: "gcc"}}},
		{"brief example", "a, b >= 1.2 c = 2:3-4", []Dep{
			{Name: "a"}, {Name: "b", Op: ">=", Version: "1.2"}, {Name: "c", Op: "=", Version: "2:3-4"}}},
		{"commas only", "a,b,,c", []Dep{{Name: "a"}, {Name: "b"}, {Name: "c"}}},
		{"all operators", "a < 1 b <= 2 c = 3 d == 4 e >= 5 f > 6 g =< 7 h => 8", []Dep{
			{"a", "<", "1"}, {"b", "<=", "2"}, {"c", "=", "3"}, {"d", "=", "4"},
			{"e", ">=", "5"}, {"f", ">", "6"}, {"g", "<=", "7"}, {"h", ">=", "8"}}},
		{"operator glued is a name, as in rpm", "b>=1.2", []Dep{{Name: "b>=1.2"}}},
		{"capabilities", "pkgconfig(zlib) >= 1.2, libc.so.6()(64bit), perl(Foo::Bar)", []Dep{
			{"pkgconfig(zlib)", ">=", "1.2"}, {Name: "libc.so.6()(64bit)"}, {Name: "perl(Foo::Bar)"}}},
		{"file dependency", "/usr/bin/python3", []Dep{{Name: "/usr/bin/python3"}}},
		{"underscore", "_foo", []Dep{{Name: "_foo"}}},
		{"tabs and newlines", "a\t>=\t1\nb", []Dep{{"a", ">=", "1"}, {Name: "b"}}},
		{"tilde and caret", "foo >= 1.0~rc1^git2", []Dep{{"foo", ">=", "1.0~rc1^git2"}}},
		{"rich kept whole", "(foo or bar) baz", []Dep{{Name: "(foo or bar)"}, {Name: "baz"}}},
		{"rich normalised", "(  foo  >=  1   if (bar   and\tbaz))", []Dep{{Name: "(foo >= 1 if (bar and baz))"}}},
		{"rich with versions", "(python3-foo >= 2 with python3-foo < 3)", []Dep{{Name: "(python3-foo >= 2 with python3-foo < 3)"}}},
		{"rich with capabilities", "(pkgconfig(zlib) >= 1.2 or libz(x86-64))", []Dep{{Name: "(pkgconfig(zlib) >= 1.2 or libz(x86-64))"}}},
		{"rich if else", "(a if b else c)", []Dep{{Name: "(a if b else c)"}}},
		{"rich chain", "(a or b or (c and d))", []Dep{{Name: "(a or b or (c and d))"}}},
		{"non-ascii first byte allowed", "é", []Dep{{Name: "é"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseDeps(c.in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("ParseDeps(%q) = %#v, want %#v", c.in, got, c.want)
			}
		})
	}
}

func TestParseDepsErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"foo >=", "Version required: foo >="},
		{"foo >= ,", "Version required: foo >= ,"},
		{"-foo", "Dependency tokens must begin with alpha-numeric, '_' or '/': -foo"},
		{"%{bar}", "Dependency tokens must begin with alpha-numeric, '_' or '/'"},
		{"/usr/bin/foo >= 1", "Versioned file name not permitted"},
		{"foo = 1-2-3", "Invalid version (double separator '-'): 1-2-3"},
		{"foo = 1:2:3", "Invalid version (double separator ':'): 1:2:3"},
		{"foo = a:1", "Invalid version (epoch must be unsigned integer): a:1"},
		{"foo = 1.0(x)", "Illegal char ')' (0x29)"},
		{"foo = 1..0", `Illegal sequence ".."`},
		{"(foo or bar", "Unterminated rich dependency"},
		{"(foo xor bar)", "Unknown rich dependency op 'xor'"},
		{"(foo or)", "Missing argument to rich dependency op"},
		{"()", "Empty rich dependency"},
		{"(a and b or c)", "Cannot chain different ops"},
		{"(a if b if c)", "Can only chain and/or/with ops"},
		{"(a (b))", "Unknown rich dependency op ''"},
		{"(0(() )", "Unbalanced parenthesis in rich dependency: 0(()"},
		{"(foo >= )", "Version required"},
		{"(-foo)", "Dependency tokens must begin with alpha-numeric"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			_, err := ParseDeps(c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ParseDeps(%q) error = %v, want it to contain %q", c.in, err, c.want)
			}
		})
	}
}

func TestDepString(t *testing.T) {
	for _, c := range []struct {
		d    Dep
		want string
	}{
		{Dep{Name: "gcc"}, "gcc"},
		{Dep{Name: "gcc", Op: ">=", Version: "12"}, "gcc >= 12"},
		{Dep{Name: "(a or b)"}, "(a or b)"},
	} {
		if got := c.d.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.d, got, c.want)
		}
		// A rendered list parses back to itself.
		if back, err := ParseDeps(c.want); err != nil || len(back) != 1 || back[0] != c.d {
			t.Errorf("ParseDeps(%q) = %v, %v", c.want, back, err)
		}
	}
}

func TestOverlap(t *testing.T) {
	d := func(s string) Dep {
		list, err := ParseDeps(s)
		if err != nil || len(list) != 1 {
			t.Fatalf("ParseDeps(%q) = %v, %v", s, list, err)
		}
		return list[0]
	}
	cases := []struct {
		req, prov string
		want      bool
	}{
		{"foo", "foo = 1.0-1", true},
		{"foo >= 1.0", "foo", true},
		{"foo", "bar", false},
		{"foo >= 1.0", "foo = 1.0-1", true},
		{"foo >= 1.1", "foo = 1.0-1", false},
		{"foo < 1.1", "foo = 1.0-1", true},
		{"foo > 1.0", "foo = 1.0-1", false},
		{"foo = 1.0", "foo = 1.0-7", true}, // no release on one side: any release matches
		{"foo = 1.0-2", "foo = 1.0-7", false},
		{"foo >= 1.0-2", "foo = 1.0-7", true},
		{"foo >= 1:1.0", "foo = 2.0-1", false}, // a positive epoch beats a missing one
		{"foo >= 0:1.0", "foo = 2.0-1", true},
		{"foo >= 2.0", "foo = 1:1.0-1", true},
		{"foo < 2.0", "foo < 1.0", true},
		{"foo > 2.0", "foo < 1.0", false},
		{"foo >= 1.0~rc1", "foo = 1.0~beta-1", false},
		{"foo >= 1.0~rc1", "foo = 1.0-1", true},
	}
	for _, c := range cases {
		if got := Overlap(d(c.req), d(c.prov)); got != c.want {
			t.Errorf("Overlap(%q, %q) = %v, want %v", c.req, c.prov, got, c.want)
		}
		if got := Overlap(d(c.prov), d(c.req)); got != c.want {
			t.Errorf("Overlap(%q, %q) = %v, want %v (symmetric)", c.prov, c.req, got, c.want)
		}
	}
}
