package listing

import (
	"cmp"
	"unicode"
	"unicode/utf8"
)

// testOp is one condition on a single field's value.
type testOp uint8

const (
	tAnd testOp = iota // all kids hold (a field's operator object; +and inside a field)
	tOr                // at least one kid holds (+or inside a field)
	tEq                // a plain value
	tNeq
	tGt
	tGte
	tLt
	tLte
	tContains
)

// test is a compiled condition on one field's value; its operand is parsed once, by ParseFilter.
type test struct {
	op   testOp
	arg  value
	kids []test
}

// eval reports whether v satisfies t.
func (t *test) eval(v *value) bool {
	switch t.op {
	case tAnd:
		for i := range t.kids {
			if !t.kids[i].eval(v) {
				return false
			}
		}
		return true
	case tOr:
		for i := range t.kids {
			if t.kids[i].eval(v) {
				return true
			}
		}
		return false
	case tEq:
		return equal(v, &t.arg)
	case tNeq:
		return !equal(v, &t.arg)
	case tContains:
		return v.kind == kStr && containsFold(v.s, t.arg.s)
	}
	c, ok := order(v, &t.arg)
	if !ok {
		return false
	}
	switch t.op {
	case tGt:
		return c > 0
	case tGte:
		return c >= 0
	case tLt:
		return c < 0
	}
	return c <= 0 // tLte
}

// equal is the X-Filter equality of a field value and an operand. Strings compare exactly
// (case-sensitive), numbers numerically, a time equals a timestamp operand naming the same second
// (UTC); a type mismatch is simply not equal.
func equal(v, arg *value) bool {
	switch arg.kind {
	case kNull:
		return v.kind == kNull
	case kBool:
		return v.kind == kBool && v.b == arg.b
	case kNum:
		return v.kind == kNum && cmpNum(v.n, arg.n) == 0
	case kStr:
		switch v.kind {
		case kStr:
			return v.s == arg.s
		case kTime:
			return arg.ts && v.sec == arg.sec
		}
	}
	return false
}

// order compares a field value with a +gt/+gte/+lt/+lte operand (a number or a timestamp):
// numbers numerically, a time to the second, and a string field lexicographically against the
// timestamp text (the cloud layout sorts like the time it names). ok is false on a mismatch.
func order(v, arg *value) (c int, ok bool) {
	switch {
	case arg.kind == kNum && v.kind == kNum:
		return cmpNum(v.n, arg.n), true
	case arg.kind == kStr && v.kind == kTime:
		return cmp.Compare(v.sec, arg.sec), true
	case arg.kind == kStr && v.kind == kStr:
		return cmp.Compare(v.s, arg.s), true
	}
	return 0, false
}

// containsFold reports whether sub occurs in s ignoring case (Unicode simple folding), without
// allocating: +contains is case-insensitive, as a user searching labels expects.
func containsFold(s, sub string) bool {
	if sub == "" {
		return true
	}
	for i := 0; i < len(s); {
		if hasPrefixFold(s[i:], sub) {
			return true
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return false
}

func hasPrefixFold(s, prefix string) bool {
	for prefix != "" {
		if s == "" {
			return false
		}
		a, wa := utf8.DecodeRuneInString(s)
		b, wb := utf8.DecodeRuneInString(prefix)
		if a != b && !foldEqual(a, b) {
			return false
		}
		s, prefix = s[wa:], prefix[wb:]
	}
	return true
}

// foldEqual reports whether two different runes are the same letter in another case.
func foldEqual(a, b rune) bool {
	if a < utf8.RuneSelf && b < utf8.RuneSelf {
		return lowerASCII(a) == lowerASCII(b)
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}

func lowerASCII(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}
