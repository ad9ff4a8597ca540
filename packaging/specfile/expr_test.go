package specfile

import (
	"strings"
	"testing"
)

func TestEvalExpr(t *testing.T) {
	cases := []struct{ in, want string }{
		{"1", "1"},
		{"0", "0"},
		{"01500", "1500"},
		{"1 + 2 * 3", "7"},
		{"(1 + 2) * 3", "9"},
		{"7 / 2", "3"},
		{"-3 + 5", "2"},
		{"!0", "1"},
		{"!5", "0"},
		{"!\"\"", "1"},
		{"!\"a\"", "0"},
		{"1 == 1", "1"},
		{"1 != 1", "0"},
		{"2 < 10", "1"},
		{"2 <= 2", "1"},
		{"3 > 2 && 2 > 1", "1"},
		{"0 || 0", "0"},
		{"0 || 7", "1"},
		{"1 && 0 || 1", "1"},
		{"0 && 1 || 0", "0"},
		{`"suse" == "suse"`, "1"},
		{`"suse" != "fedora"`, "1"},
		{`"a" < "b"`, "1"},
		{`"ab" + "cd"`, "abcd"},
		{`"" || "x"`, "x"},
		{`"a" && "b"`, "b"},
		{`"" && "b"`, ""},
		{`v"1.10" > v"1.9"`, "1"},
		{`v"1.0~rc1" < v"1.0"`, "1"},
		{`v"2:1.0" > v"3.0"`, "1"},
		{"1 ? 2 : 3", "2"},
		{"0 ? 2 : 3", "3"},
		{"0 ? 1 / 0 : 4", "4"},
		{"0 && 1 / 0", "0"},
		{"1 || 1 / 0", "1"},
		{"1500 >= 1500 && 0", "0"},
	}
	for _, c := range cases {
		v, err := evalExpr(c.in)
		if err != nil {
			t.Errorf("evalExpr(%q): %v", c.in, err)
			continue
		}
		if got := v.String(); got != c.want {
			t.Errorf("evalExpr(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEvalExprErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "unexpected end of expression"},
		{"   ", "unexpected end of expression"},
		{"suse == suse", "bare words are no longer supported"},
		{"1 == suse", "bare words are no longer supported"},
		{"1500abc", "bare words are no longer supported"},
		{"1 +", "unexpected end of expression"},
		{"(1 + 2", "unmatched ("},
		{"1 2", "syntax error in expression"},
		{"1 @ 2", "syntax error in expression"},
		{`1 == "1"`, "types must match"},
		{`"a" - "b"`, "- only on numbers"},
		{`"a" * 2`, "only on numbers"},
		{`-"a"`, "- only on numbers"},
		{"1 / 0", "division by zero"},
		{`"abc`, "unterminated string"},
		{"1 ? 2", "syntax error while parsing ?:"},
		{"99999999999999999999", "integer overflow"},
		{") 1", "syntax error while parsing )"},
	}
	for _, c := range cases {
		_, err := evalExpr(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("evalExpr(%q) error = %v, want it to contain %q", c.in, err, c.want)
		}
	}
}
