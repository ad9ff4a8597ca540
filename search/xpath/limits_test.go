package xpath

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestHostilePredicates: absurd nesting, long and/or chains and huge literals are refused (or
// answered) fast, with the parser's words, before antchfx's recursive parser sees them.
func TestHostilePredicates(t *testing.T) {
	chain := func(n int, op string) string {
		terms := make([]string, n)
		for i := range terms {
			terms[i] = "@name='x'"
		}
		return strings.Join(terms, " "+op+" ")
	}
	cases := []struct {
		name, match, want string // want: a substring of the refusal, "" for a compiled query
	}{
		{"5,000 parentheses", strings.Repeat("(", 5000) + "@name='x'" + strings.Repeat(")", 5000), "nested deeper than 64 levels"},
		{"5,000 unbalanced parentheses", strings.Repeat("(", 5000), "nested deeper than 64 levels"},
		{"2,000 nested calls", strings.Repeat("not(", 2000) + "@name" + strings.Repeat(")", 2000), "nested deeper than 64 levels"},
		{"2,000 nested predicates", strings.Repeat("person[", 2000) + "@userid" + strings.Repeat("]", 2000), "nested deeper than 64 levels"},
		{"2,000-term or chain", chain(2000, "or"), "longer than"},
		{"600-term or chain", strings.Repeat("@id=1 or ", 599) + "@id=1", "more than 256 conditions"},
		{"600-term and chain", strings.Repeat("@id=1 and ", 599) + "@id=1", "more than 256 conditions"},
		{"255-term or chain", chain(255, "or"), ""},
		{"60 KB literal", "@name='" + strings.Repeat("a", 60<<10) + "'", "longer than"},
		{"15 KB literal", "@name='" + strings.Repeat("a", 15<<10) + "'", ""},
		{"60 KB of names", strings.Repeat("a", 60<<10), "longer than"},
		{"unterminated", "@name='x", "unterminated string literal"},
		{"syntax", "@name=='x'", "failed to parse"},
		{"union", "@name='a' | @name='b'", "illegal token X ':union'"},
		{"position", "position()=1", "unknown xpath function 'position'"},
		{"unknown key", "foo='x'", "unable to evaluate 'foo' for 'packages'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			q, err := Compile("package", c.match)
			if took := time.Since(start); took > 50*time.Millisecond {
				t.Errorf("took %v", took)
			}
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				q.Match(doc(t, helloPackage))
				q.Plan()
				return
			}
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Msg, c.want) {
				t.Fatalf("Compile = %v, want an *Error with %q", err, c.want)
			}
		})
	}
}

// TestChainsRenderFlat: and/or chains reach antchfx without a parenthesis per link.
func TestChainsRenderFlat(t *testing.T) {
	q, err := Compile("package", `@name='a' or @name='b' or @name='c' and @project='p' and title='t'`)
	if err != nil {
		t.Fatal(err)
	}
	// (antchfx's String() puts its own parentheses around each comparison)
	want := `/package[((@name = 'a') or (@name = 'b') or ((@name = 'c') and (@project = 'p') and title[lower-case(.) = 't']))]`
	if q.XPath() != want {
		t.Fatalf("XPath = %s\nwant %s", q.XPath(), want)
	}
}

// TestKeys: what a predicate reads, as the document has it, for the store's key-only
// evaluation.
func TestKeys(t *testing.T) {
	for _, c := range []struct {
		root, match, keys string
		nameOnly          bool
	}{
		{"package", `contains(@name, 'x')`, "@name", true},
		{"package", `@project='p' and starts-with(@name, 'x')`, "@name @project", true},
		{"package", `@name='x' or title='x'`, "@name title", false},
		{"package", `person[@userid='u' and @role='r']`, "person person/@role person/@userid", false},
		{"package", `not(devel)`, "devel", false},
		{"request", `target/@project='p'`, "action/target/@project", false},
		{"package", `*`, "", true},
		{"package", `'a'='a'`, "", true},
	} {
		q, err := Compile(c.root, c.match)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(q.Keys(), " "); got != c.keys {
			t.Errorf("%s: Keys = %q, want %q", c.match, got, c.keys)
		}
		if got := q.ReadsOnly("@name", "@project"); got != c.nameOnly {
			t.Errorf("%s: ReadsOnly = %v", c.match, got)
		}
	}
}

// TestCompileCache: a compiled query is reused; a refusal is not kept.
func TestCompileCache(t *testing.T) {
	a, _ := Compile("package", `@name='cached'`)
	b, _ := Compile("package", `@name='cached'`)
	if a == nil || a != b {
		t.Fatal("the second Compile did not reuse the first")
	}
	if c, _ := Compile("project", `@name='cached'`); c == a {
		t.Fatal("another root shared the query")
	}
	for i := range cacheSize + 10 {
		Compile("package", "@name='"+strings.Repeat("x", i)+"'")
	}
	if c, _ := Compile("package", `@name='cached'`); c == a {
		t.Fatal("the least recently used query stayed")
	}
	if queryCache.order.Len() > cacheSize {
		t.Fatalf("%d cached", queryCache.order.Len())
	}
}
