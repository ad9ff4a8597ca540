package resolve

import (
	"testing"

	"github.com/pocketforge/pocketforge/packaging/specfile"
)

// The cases of rpm's tests/rpmvercmp.at (basic, tilde and caret sorting).
var rpmvercmpCases = []struct {
	a, b string
	want int
}{
	{"1.0", "1.0", 0}, {"1.0", "2.0", -1}, {"2.0", "1.0", 1},
	{"2.0.1", "2.0.1", 0}, {"2.0", "2.0.1", -1}, {"2.0.1", "2.0", 1},
	{"2.0.1a", "2.0.1a", 0}, {"2.0.1a", "2.0.1", 1}, {"2.0.1", "2.0.1a", -1},
	{"5.5p1", "5.5p1", 0}, {"5.5p1", "5.5p2", -1}, {"5.5p2", "5.5p1", 1},
	{"5.5p10", "5.5p10", 0}, {"5.5p1", "5.5p10", -1}, {"5.5p10", "5.5p1", 1},
	{"10xyz", "10.1xyz", -1}, {"10.1xyz", "10xyz", 1},
	{"xyz10", "xyz10", 0}, {"xyz10", "xyz10.1", -1}, {"xyz10.1", "xyz10", 1},
	{"xyz.4", "xyz.4", 0}, {"xyz.4", "8", -1}, {"8", "xyz.4", 1}, {"xyz.4", "2", -1}, {"2", "xyz.4", 1},
	{"5.5p2", "5.6p1", -1}, {"5.6p1", "5.5p2", 1},
	{"5.6p1", "6.5p1", -1}, {"6.5p1", "5.6p1", 1},
	{"6.0.rc1", "6.0", 1}, {"6.0", "6.0.rc1", -1},
	{"10b2", "10a1", 1}, {"10a2", "10b2", -1},
	{"1.0aa", "1.0aa", 0}, {"1.0a", "1.0aa", -1}, {"1.0aa", "1.0a", 1},
	{"10.0001", "10.0001", 0}, {"10.0001", "10.1", 0}, {"10.1", "10.0001", 0},
	{"10.0001", "10.0039", -1}, {"10.0039", "10.0001", 1},
	{"4.999.9", "5.0", -1}, {"5.0", "4.999.9", 1},
	{"20101121", "20101121", 0}, {"20101121", "20101122", -1}, {"20101122", "20101121", 1},
	{"2_0", "2_0", 0}, {"2.0", "2_0", 0}, {"2_0", "2.0", 0},
	{"a", "a", 0}, {"a+", "a+", 0}, {"a+", "a_", 0}, {"a_", "a+", 0},
	{"+a", "+a", 0}, {"+a", "_a", 0}, {"_a", "+a", 0},
	{"+_", "+_", 0}, {"_+", "+_", 0}, {"_+", "_+", 0}, {"+", "_", 0}, {"_", "+", 0},
	{"1.0~rc1", "1.0~rc1", 0}, {"1.0~rc1", "1.0", -1}, {"1.0", "1.0~rc1", 1},
	{"1.0~rc1", "1.0~rc2", -1}, {"1.0~rc2", "1.0~rc1", 1},
	{"1.0~rc1~git123", "1.0~rc1~git123", 0}, {"1.0~rc1~git123", "1.0~rc1", -1}, {"1.0~rc1", "1.0~rc1~git123", 1},
	{"1.0^", "1.0^", 0}, {"1.0^", "1.0", 1}, {"1.0", "1.0^", -1},
	{"1.0^git1", "1.0^git1", 0}, {"1.0^git1", "1.0", 1}, {"1.0", "1.0^git1", -1},
	{"1.0^git1", "1.0^git2", -1}, {"1.0^git2", "1.0^git1", 1},
	{"1.0^git1", "1.01", -1}, {"1.01", "1.0^git1", 1},
	{"1.0^20160101", "1.0^20160101", 0}, {"1.0^20160101", "1.0.1", -1}, {"1.0.1", "1.0^20160101", 1},
	{"1.0^20160101^git1", "1.0^20160101^git1", 0}, {"1.0^20160102", "1.0^20160101^git1", 1},
	{"1.0^20160101^git1", "1.0^20160102", -1},
	{"1.0~rc1^git1", "1.0~rc1^git1", 0}, {"1.0~rc1^git1", "1.0~rc1", 1}, {"1.0~rc1", "1.0~rc1^git1", -1},
	{"1.0^git1~pre", "1.0^git1~pre", 0}, {"1.0^git1", "1.0^git1~pre", 1}, {"1.0^git1~pre", "1.0^git1", -1},
	// rpm's documented oddity: non-ASCII letters separate like punctuation.
	{"1.1.α", "1.1.β", 0},
}

func TestRpmvercmp(t *testing.T) {
	for _, c := range rpmvercmpCases {
		if got := specfile.Vercmp(c.a, c.b); got != c.want {
			t.Errorf("Vercmp(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestEVRCompare(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		loose bool
		want  int
	}{
		{"1:1.0-1", "2.0-1", false, 1},    // epoch first
		{"0:2.0-1", "2.0-1", false, 0},    // missing epoch is 0
		{"2.0-2", "2.0-10", false, -1},    // release numerically
		{"2.0", "2.0-5", false, -1},       // strict: a release is more
		{"2.0", "2.0-5", true, 0},         // a dependency without release matches any
		{"2-3", "2", true, 0},             // "foo = 2" is met by 2-3
		{"1.0-1", "1.0-1.1", true, -1},    // both releases given
		{"3:1", "2:9", true, 1},           // epochs still count
		{"1.0-a-b", "1.0-a-c", false, -1}, // the release is what follows the last "-"
	} {
		if got := evrcmp(c.a, c.b, c.loose); got != c.want {
			t.Errorf("evrcmp(%q, %q, %v) = %d, want %d", c.a, c.b, c.loose, got, c.want)
		}
	}
}

func TestRangesMeet(t *testing.T) {
	for _, c := range []struct {
		pOp, pVer, dOp, dVer string
		want                 bool
	}{
		{"=", "2.1-1", ">=", "2", true},
		{"=", "1.9-1", ">=", "2", false},
		{"=", "2-1", "=", "2", true},
		{"=", "2-1", "=", "2-2", false},
		{"=", "1", "<", "2", true},
		{"=", "2", "<", "2", false},
		{"=", "3", ">", "2", true},
		{"<", "3", ">=", "2", true}, // ranges overlap
		{"<", "2", ">", "3", false},
		{">=", "5", ">=", "2", true}, // both open upwards
		{"", "", ">=", "99", true},   // unversioned provide meets any
		{"=", "2", "~>", "2", false}, // unknown operator
	} {
		if got := rangesMeet(c.pOp, c.pVer, c.dOp, c.dVer); got != c.want {
			t.Errorf("rangesMeet(%s %s, %s %s) = %v, want %v", c.pOp, c.pVer, c.dOp, c.dVer, got, c.want)
		}
	}
}
