package resolve

import (
	"strings"

	"github.com/pocketforge/pocketforge/packaging/specfile"
)

// rpm's version order itself is specfile.Vercmp; this file adds what dependency matching needs
// around it (a missing epoch is 0, a missing version or release matches any).

// splitEVR splits "[epoch:]version[-release]" the way the build service does: the epoch is a
// leading run of digits before ":", the release whatever follows the last "-".
func splitEVR(s string) (epoch, version, release string) {
	if i := strings.IndexByte(s, ':'); i > 0 && strings.TrimLeftFunc(s[:i], func(r rune) bool { return r >= '0' && r <= '9' }) == "" {
		epoch, s = s[:i], s[i+1:]
	}
	if i := strings.LastIndexByte(s, '-'); i >= 0 {
		return epoch, s[:i], s[i+1:]
	}
	return epoch, s, ""
}

// evrcmp compares two "[epoch:]version[-release]" strings. A missing epoch is 0. With loose set
// (a dependency test), a side without version or release matches any, as in rpm, so
// "foo >= 2" is met by "foo = 2-3".
func evrcmp(a, b string, loose bool) int {
	if a == b {
		return 0
	}
	ea, va, ra := splitEVR(a)
	eb, vb, rb := splitEVR(b)
	if ea == "" {
		ea = "0"
	}
	if eb == "" {
		eb = "0"
	}
	if c := specfile.Vercmp(ea, eb); c != 0 {
		return c
	}
	if loose && (va == "" || vb == "") {
		return 0
	}
	if c := specfile.Vercmp(va, vb); c != 0 {
		return c
	}
	if loose && (ra == "" || rb == "") {
		return 0
	}
	return specfile.Vercmp(ra, rb)
}
