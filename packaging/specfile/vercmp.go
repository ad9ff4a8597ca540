package specfile

import "strings"

// Vercmp compares two version (or release) strings the way rpm's rpmvercmp does and returns -1, 0
// or 1. The resolver needs exactly rpm's order, odd corners included, so that "foo >= 1.0~rc1" is
// satisfied by the same binaries here as on a real system:
//   - the strings are cut into segments of ASCII digits or ASCII letters; every other byte only
//     separates segments (so "2.0" equals "2_0", and non-ASCII bytes are separators);
//   - a digit segment beats a letter segment; digit segments compare as numbers of any length
//     (leading zeros dropped), letter segments byte-wise;
//   - '~' sorts before anything, even the end of the string ("1.0~rc1" < "1.0");
//   - '^' sorts after the end of the string but before any other segment ("1.0" < "1.0^git1" <
//     "1.01");
//   - when all segments are equal, the string with segments left over is newer.
//
// As in C, a NUL byte ends the string.
func Vercmp(a, b string) int {
	if i := strings.IndexByte(a, 0); i >= 0 {
		a = a[:i]
	}
	if i := strings.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	if a == b {
		return 0
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		for i < len(a) && !isAlnum(a[i]) && a[i] != '~' && a[i] != '^' {
			i++
		}
		for j < len(b) && !isAlnum(b[j]) && b[j] != '~' && b[j] != '^' {
			j++
		}
		ca, cb := at(a, i), at(b, j)
		// Tilde sorts before everything else, the end of the string included.
		if ca == '~' || cb == '~' {
			if ca != '~' {
				return 1
			}
			if cb != '~' {
				return -1
			}
			i, j = i+1, j+1
			continue
		}
		// Caret sorts after the end of the string but before any other segment.
		if ca == '^' || cb == '^' {
			if i >= len(a) {
				return -1
			}
			if j >= len(b) {
				return 1
			}
			if ca != '^' {
				return 1
			}
			if cb != '^' {
				return -1
			}
			i, j = i+1, j+1
			continue
		}
		if i >= len(a) || j >= len(b) {
			break
		}
		si, sj := i, j
		isnum := isDigit(a[i])
		if isnum {
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
		} else {
			for i < len(a) && isAlpha(a[i]) {
				i++
			}
			for j < len(b) && isAlpha(b[j]) {
				j++
			}
		}
		if sj == j {
			// b's segment is of the other kind: a number beats letters.
			if isnum {
				return 1
			}
			return -1
		}
		sa, sb := a[si:i], b[sj:j]
		if isnum {
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
	switch {
	case i >= len(a) && j >= len(b):
		return 0
	case i >= len(a):
		return -1
	default:
		return 1
	}
}

// at returns s[i], or 0 past the end, like reading a C string's terminator.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool { return isDigit(c) || isAlpha(c) }

// EVR is a version split as rpm splits "[epoch:]version[-release]". HasEpoch and HasRelease
// tell an absent part from an empty one, because rpm treats them differently.
type EVR struct {
	Epoch, Version, Release string
	HasEpoch, HasRelease    bool
}

// ParseEVR splits s as rpm's parseEVR does: the epoch is a leading run of digits ended by ':'
// (an empty epoch before ':' reads as "0"), the release is whatever follows the last '-'.
func ParseEVR(s string) EVR {
	var e EVR
	d := 0
	for d < len(s) && isDigit(s[d]) {
		d++
	}
	rest := s
	if d < len(s) && s[d] == ':' {
		e.Epoch, e.HasEpoch = s[:d], true
		if e.Epoch == "" {
			e.Epoch = "0"
		}
		rest = s[d+1:]
	}
	// rpm looks for the last '-' after the leading digits; those hold no '-', so any will do.
	if k := strings.LastIndexByte(rest, '-'); k >= 0 {
		e.Version, e.Release, e.HasRelease = rest[:k], rest[k+1:], true
	} else {
		e.Version = rest
	}
	return e
}

// String puts the parts back together as "[epoch:]version[-release]".
func (e EVR) String() string {
	s := e.Version
	if e.HasEpoch {
		s = e.Epoch + ":" + s
	}
	if e.HasRelease {
		s += "-" + e.Release
	}
	return s
}

// EVRCompare orders two "[epoch:]version[-release]" strings as rpm's rpmverCmp does: a missing
// epoch counts as 0, then versions and releases compare with Vercmp, and a missing release sorts
// before any release. Use it to sort builds; to decide whether a versioned dependency is met, use
// Overlap, which (like rpm) lets a side without a release match any release.
func EVRCompare(a, b string) int {
	x, y := ParseEVR(a), ParseEVR(b)
	ex, ey := x.Epoch, y.Epoch
	if !x.HasEpoch {
		ex = "0"
	}
	if !y.HasEpoch {
		ey = "0"
	}
	if c := Vercmp(ex, ey); c != 0 {
		return c
	}
	if c := Vercmp(x.Version, y.Version); c != 0 {
		return c
	}
	switch {
	case x.HasRelease && y.HasRelease:
		return Vercmp(x.Release, y.Release)
	case x.HasRelease:
		return 1
	case y.HasRelease:
		return -1
	}
	return 0
}
