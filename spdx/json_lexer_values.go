package spdx

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The value readers of jsonLexer: strings, numbers, literals, and skipping or cutting out
// whole values.

// strSpecial marks the bytes that end the fast path of str.
var strSpecial = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// str reads the string at pos and returns its decoded bytes, valid until the next call.
func (l *jsonLexer) str() []byte {
	i := l.pos + 1
	for {
		for i < len(l.buf) {
			c := l.buf[i]
			if !strSpecial[c] {
				i++
				continue
			}
			switch {
			case c == '"':
				s := l.buf[l.pos+1 : i]
				l.pos = i + 1
				return s
			case c == '\\':
				return l.strEscaped(i - l.pos)
			}
			l.syntax(i-l.pos, "control character %#02x in a string", c)
			return nil
		}
		rel := i - l.pos
		if !l.fill() {
			l.failRead()
			return nil
		}
		i = l.pos + rel
	}
}

// strEscaped finishes a string that has escapes, decoding it into scratch; rel is the offset
// of the first backslash from the opening quote at pos.
func (l *jsonLexer) strEscaped(rel int) []byte {
	l.scratch = append(l.scratch[:0], l.buf[l.pos+1:l.pos+rel]...)
	for {
		if !l.avail(rel, 1) {
			l.failRead()
			return nil
		}
		c := l.buf[l.pos+rel]
		switch {
		case c == '"':
			l.pos += rel + 1
			return l.scratch
		case c < 0x20:
			l.syntax(rel, "control character %#02x in a string", c)
			return nil
		case c != '\\':
			l.scratch = append(l.scratch, c)
			rel++
			continue
		}
		if !l.avail(rel, 2) {
			l.failRead()
			return nil
		}
		switch e := l.buf[l.pos+rel+1]; e {
		case '"', '\\', '/':
			l.scratch = append(l.scratch, e)
		case 'b':
			l.scratch = append(l.scratch, '\b')
		case 'f':
			l.scratch = append(l.scratch, '\f')
		case 'n':
			l.scratch = append(l.scratch, '\n')
		case 'r':
			l.scratch = append(l.scratch, '\r')
		case 't':
			l.scratch = append(l.scratch, '\t')
		case 'u':
			r, ok := l.hex4(rel + 2)
			if !ok {
				l.syntax(rel, `invalid \u escape`)
				return nil
			}
			rel += 6
			if utf16.IsSurrogate(r) {
				r2, ok := rune(0), false
				if l.avail(rel, 2) && l.buf[l.pos+rel] == '\\' && l.buf[l.pos+rel+1] == 'u' {
					r2, ok = l.hex4(rel + 2)
				}
				if r = utf16.DecodeRune(r, r2); ok && r != utf8.RuneError {
					rel += 6
				}
			}
			l.scratch = utf8.AppendRune(l.scratch, r)
			continue
		default:
			l.syntax(rel, "invalid escape %q in a string", `\`+string(rune(e)))
			return nil
		}
		rel += 2
	}
}

// hex4 reads four hex digits at pos+rel.
func (l *jsonLexer) hex4(rel int) (rune, bool) {
	if !l.avail(rel, 4) {
		return 0, false
	}
	var r rune
	for _, c := range l.buf[l.pos+rel : l.pos+rel+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// at returns the byte at pos+rel, or 0 at the end of input.
func (l *jsonLexer) at(rel int) byte {
	if !l.avail(rel, 1) {
		return 0
	}
	return l.buf[l.pos+rel]
}

// number reads past a number, checking its grammar.
func (l *jsonLexer) number() {
	rel := 0
	if l.at(rel) == '-' {
		rel++
	}
	digits := func() bool {
		start := rel
		for c := l.at(rel); c >= '0' && c <= '9'; c = l.at(rel) {
			rel++
		}
		return rel > start
	}
	switch c := l.at(rel); {
	case c == '0':
		rel++
	case c >= '1' && c <= '9':
		digits()
	default:
		l.syntax(rel, "invalid number: expected a digit, found %s", describeByte(c))
		return
	}
	if l.at(rel) == '.' {
		rel++
		if !digits() {
			l.syntax(rel, "invalid number: no digits after '.'")
			return
		}
	}
	if c := l.at(rel); c == 'e' || c == 'E' {
		rel++
		if c := l.at(rel); c == '+' || c == '-' {
			rel++
		}
		if !digits() {
			l.syntax(rel, "invalid number: no digits in the exponent")
			return
		}
	}
	l.pos += rel
}

// literal reads past true, false or null.
func (l *jsonLexer) literal(word string) {
	whole := l.avail(0, len(word))
	if got := l.buf[l.pos:min(len(l.buf), l.pos+len(word))]; word[:len(got)] != string(got) {
		l.syntax(0, "invalid literal, expected %s", word)
		return
	}
	if !whole {
		l.failRead()
		return
	}
	l.pos += len(word)
}

// skip reads past one value of any type.
func (l *jsonLexer) skip() {
	switch c := l.peek(); c {
	case '{':
		for n := 0; l.nextMember(&n); {
			l.skip()
		}
	case '[':
		for n := 0; l.nextElem(&n); {
			l.skip()
		}
	case '"':
		l.str()
	case 't':
		l.literal("true")
	case 'f':
		l.literal("false")
	case 'n':
		l.literal("null")
	default:
		if c == '-' || c >= '0' && c <= '9' {
			l.number()
			return
		}
		l.syntax(0, "expected a value, found %s", describeByte(c))
	}
}

// raw reads past one value and returns its bytes, valid until the next call.
func (l *jsonLexer) raw() []byte {
	l.peek()
	l.keep = l.pos
	l.skip()
	b := l.buf[l.keep:l.pos]
	l.keep = -1
	if l.err != nil {
		return nil
	}
	return b
}

// text reads a string value for field; null is "". Another type is a typeError.
func (l *jsonLexer) text(field string) string {
	if b := l.textBytes(field); b != nil {
		return validString(b)
	}
	return ""
}

// textBytes is text without the copy, for values that are only compared: the bytes are valid
// until the next call.
func (l *jsonLexer) textBytes(field string) []byte {
	switch c := l.peek(); c {
	case '"':
		return l.str()
	case 'n':
		l.literal("null")
	default:
		l.wrongType(field, c, "a string")
	}
	return nil
}

// wrongType records a typeError for the value starting with c, or a syntax error when c
// starts no value at all.
func (l *jsonLexer) wrongType(field string, c byte, want string) {
	switch {
	case l.err != nil:
	case c == '{' || c == '[' || c == '"' || c == 't' || c == 'f' || c == 'n' || c == '-' || c >= '0' && c <= '9':
		l.err = &typeError{field: field, got: valueKind(c), want: want}
	default:
		l.syntax(0, "expected a value, found %s", describeByte(c))
	}
}

// validString converts decoded string bytes, replacing invalid UTF-8 as encoding/json does.
func validString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// valueKind names the JSON type of a value by its first byte.
func valueKind(c byte) string {
	switch {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	}
	return "a number"
}

// describeByte names an unexpected byte in a syntax error.
func describeByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", rune(c))
	}
	return fmt.Sprintf("byte %#02x", c)
}
