package listing

import (
	"math"
	"testing"
)

func TestContainsFold(t *testing.T) {
	cases := []struct {
		name, s, sub string
		want         bool
	}{
		{"empty sub", "abc", "", true},
		{"ascii fold", "Web-Server", "server", true},
		{"missing", "web", "worker", false},
		{"longer sub", "ab", "abc", false},
		{"unicode fold", "ÄRGER", "ärg", true},
		{"kelvin sign", "\u212a", "k", true},
		{"sharp s not folded to ss", "STRASSE", "ß", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := containsFold(tc.s, tc.sub); got != tc.want {
				t.Fatalf("containsFold(%q, %q) = %v", tc.s, tc.sub, got)
			}
		})
	}
}

func TestCmpNum(t *testing.T) {
	cases := []struct {
		name string
		a, b num
		want int
	}{
		{"ints", intNum(1), intNum(2), -1},
		{"uint above int", uintNum(math.MaxUint64), intNum(math.MaxInt64), 1},
		{"int below uint", intNum(-1), uintNum(math.MaxUint64), -1},
		{"uints", uintNum(math.MaxUint64), uintNum(math.MaxUint64), 0},
		{"small uint is int", uintNum(3), intNum(3), 0},
		{"float and int", num{k: nFloat, f: 2.5}, intNum(2), 1},
		{"parsed overflow", parseNum("1e400"), uintNum(math.MaxUint64), 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := cmpNum(tc.a, tc.b); got != tc.want {
				t.Fatalf("cmpNum = %d, want %d", got, tc.want)
			}
		})
	}
}
