package buildsvc

import (
	"slices"
	"testing"
)

// TestCaseVariants: every way a name starting with a lower-cased prefix may begin, sorted.
func TestCaseVariants(t *testing.T) {
	for _, c := range []struct {
		prefix string
		want   []string
	}{
		{"a:b", []string{"A:B", "A:b", "a:B", "a:b"}},
		{"1:", []string{"1:"}},
		{"", []string{""}},
		{"x\x00y", []string{"X", "x"}},
		{"é", []string{""}},
	} {
		if got := caseVariants(c.prefix); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.prefix, got, c.want)
		}
	}
	if got := caseVariants("abcdefgh"); len(got) != 32 || got[0] != "ABCDE" || got[31] != "abcde" {
		t.Errorf("abcdefgh: %d variants %q…", len(got), got[0])
	}
}
