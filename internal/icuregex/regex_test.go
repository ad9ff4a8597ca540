package regex

import (
	"context"
	"testing"
)

// TestQueries: positions count characters from 1 (Matches' from 0), occurrences count from 1,
// and replacements follow ICU's $n / ${name} / \c syntax. Run in this directory (a module of
// its own); sqlengine's TestRegexpFunctions checks the same through go-mysql-server.
func TestQueries(t *testing.T) {
	ctx := context.Background()
	re := func(pattern, text string, flags RegexFlags) Regex {
		t.Helper()
		r := CreateRegex(0)
		if err := r.SetRegexString(ctx, pattern, flags); err != nil {
			t.Fatalf("%q: %v", pattern, err)
		}
		if err := r.SetMatchString(ctx, text); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if i, _ := re("t", "été été", 0).IndexOf(ctx, 1, 2, false); i != 6 {
		t.Errorf("IndexOf second t = %d, want 6", i)
	}
	if i, _ := re("b+", "abbbc", 0).IndexOf(ctx, 1, 1, true); i != 5 {
		t.Errorf("IndexOf end = %d, want 5", i)
	}
	if i, _ := re("a", "abc", 0).IndexOf(ctx, 9, 1, false); i != 0 {
		t.Errorf("IndexOf past the end = %d, want 0", i)
	}
	if ok, _ := re("^b", "ab", 0).Matches(ctx, 0, 0); ok {
		t.Error("^b matched ab")
	}
	if s, ok, _ := re("[0-9]+", "a1 b22 c333", 0).Substring(ctx, 1, 3); !ok || s != "333" {
		t.Errorf("Substring = %q %v", s, ok)
	}
	for _, c := range []struct {
		pattern, text, repl string
		pos, occ            int
		want                string
	}{
		{"(\\w+)@(\\w+)", "me@host", "$2 at $1", 1, 0, "host at me"},
		{"(?P<user>\\w+)@", "me@host", "${user}!", 1, 0, "me!host"},
		{"o", "foo boo", "\\$", 1, 0, "f$$ b$$"},
		{"o", "foo boo", "0", 4, 0, "foo b00"},
		{"o", "foo boo", "0", 1, 3, "foo b0o"},
		{"^a", "aaa", "x", 1, 0, "xaa"},
		{"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)", "abcdefghij", "$10$1", 1, 0, "ja"},
	} {
		got, err := re(c.pattern, c.text, 0).Replace(ctx, c.repl, c.pos, c.occ)
		if err != nil || got != c.want {
			t.Errorf("Replace(%q, %q, %q, %d, %d) = %q, %v; want %q", c.pattern, c.text, c.repl, c.pos, c.occ, got, err, c.want)
		}
	}
	if _, err := re("b", "abc", 0).Replace(ctx, "$", 1, 0); err == nil {
		t.Error("a lone $ in the replacement was accepted")
	}
	if ok, _ := re(`caf\u00e9`, "café", 0).Matches(ctx, 0, 0); !ok {
		t.Error(`\u00e9 did not match é`)
	}
	if ok, _ := re(`a\\u0041`, `a\u0041`, 0).Matches(ctx, 0, 0); !ok {
		t.Error(`an escaped backslash before u was read as \u`)
	}
	if ok, _ := re("A.B", "a\nb", RegexFlags_Case_Insensitive|RegexFlags_Dot_All).Matches(ctx, 0, 0); !ok {
		t.Error("i and dot-all flags not applied")
	}
	for _, bad := range []string{`(a)\1`, `a(?=b)`, `(`} {
		if err := CreateRegex(0).SetRegexString(ctx, bad, 0); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	var unset goRegex
	if _, err := unset.Matches(ctx, 0, 0); err != ErrRegexNotYetSet {
		t.Errorf("no pattern: %v", err)
	}
}
