package resolve

import "strings"

// This file holds rpm's version ordering. The specfile package gets its own EVRCompare in
// parallel; these stay unexported so the lead can switch the resolver to that one at the merge
// without an API change here.

// rpmvercmp orders two version (or release) strings as rpm does: alternating runs of digits and
// letters compare pairwise (digits numerically, a digit run beating a letter run), every other
// byte only separates runs, "~" sorts before anything (even the end) and "^" after the end but
// before anything else.
func rpmvercmp(a, b string) int {
	if a == b {
		return 0
	}
	for {
		a = strings.TrimLeftFunc(a, isSeparator)
		b = strings.TrimLeftFunc(b, isSeparator)
		if strings.HasPrefix(a, "~") || strings.HasPrefix(b, "~") {
			if !strings.HasPrefix(a, "~") {
				return 1
			}
			if !strings.HasPrefix(b, "~") {
				return -1
			}
			a, b = a[1:], b[1:]
			continue
		}
		if strings.HasPrefix(a, "^") || strings.HasPrefix(b, "^") {
			switch {
			case a == "":
				return -1
			case b == "":
				return 1
			case a[0] != '^':
				return 1
			case b[0] != '^':
				return -1
			}
			a, b = a[1:], b[1:]
			continue
		}
		if a == "" || b == "" {
			break
		}
		numeric := isDigit(a[0])
		class := isAlpha
		if numeric {
			class = isDigit
		}
		sa, sb := leadingRun(a, class), leadingRun(b, class)
		a, b = a[len(sa):], b[len(sb):]
		if sb == "" {
			// The other side has a run of the other kind here: a number beats letters.
			if numeric {
				return 1
			}
			return -1
		}
		if numeric {
			sa, sb = strings.TrimLeft(sa, "0"), strings.TrimLeft(sb, "0")
			if len(sa) != len(sb) {
				if len(sa) > len(sb) {
					return 1
				}
				return -1
			}
		}
		if c := strings.Compare(sa, sb); c != 0 {
			return c
		}
	}
	if a == "" && b == "" {
		return 0
	}
	if a == "" {
		return -1
	}
	return 1
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isSeparator reports the runes rpm skips between runs: everything but ASCII letters, digits,
// "~" and "^" (so any non-ASCII letter is a separator too, as in rpm).
func isSeparator(r rune) bool {
	return !(r < 0x80 && (isDigit(byte(r)) || isAlpha(byte(r)))) && r != '~' && r != '^'
}

func leadingRun(s string, class func(byte) bool) string {
	i := 0
	for i < len(s) && class(s[i]) {
		i++
	}
	return s[:i]
}

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
	if c := rpmvercmp(ea, eb); c != 0 {
		return c
	}
	if loose && (va == "" || vb == "") {
		return 0
	}
	if c := rpmvercmp(va, vb); c != 0 {
		return c
	}
	if loose && (ra == "" || rb == "") {
		return 0
	}
	return rpmvercmp(ra, rb)
}
