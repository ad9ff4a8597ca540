package spdx

import (
	"unicode"
	"unicode/utf8"
)

// charsMode is where character data stands, which decides what is special in it.
type charsMode uint8

const (
	charsText     charsMode = iota // text between tags: up to '<', entities decoded, "]]>" refused
	charsCDATA                     // a CDATA section: nothing decoded but line ends
	charsAttrQuot                  // an attribute value in "…": up to '"', entities decoded, '<' refused
	charsAttrApos                  // an attribute value in '…'
	charsModes
)

// plainBytes[mode][c] is true for the bytes that stand for themselves in that mode; every
// other byte (controls, '\r', non-ASCII, and per mode '&', '<', ']', the closing quote) needs
// a closer look.
var plainBytes = func() (t [charsModes][256]bool) {
	for m := range t {
		for c := 0x20; c < utf8.RuneSelf; c++ {
			t[m][c] = true
		}
		t[m]['\t'], t[m]['\n'] = true, true
	}
	t[charsText]['&'], t[charsText][']'], t[charsText]['<'] = false, false, false
	t[charsAttrQuot]['&'], t[charsAttrQuot]['<'], t[charsAttrQuot]['"'] = false, false, false
	t[charsAttrApos]['&'], t[charsAttrApos]['<'], t[charsAttrApos]['\''] = false, false, false
	return t
}()

// chars checks and decodes character data from d[i] as encoding/xml's text does, in one pass:
// every character must be valid UTF-8 and allowed in XML, "\r\n" and a lone '\r' become '\n',
// and in text and attribute values the predefined entities and character references are
// replaced. It stops at the mode's end ('<' for text, the quote for a value) and returns its
// index; at the end of d, it returns errShort unless d is complete (the input ends there, or d
// is a whole CDATA section). Data without entities or '\r' is returned as the slice of d it
// is; other data is decoded into the scanner's scratch buffer.
func (s *xmlScanner) chars(d []byte, i int, mode charsMode, complete bool) ([]byte, int, error) {
	plain := &plainBytes[mode]
	start, copied := i, i // d[copied:i] is not in scratch yet
	from := -1            // where the decoded data starts in scratch, -1 while none is
	for {
		for i < len(d) && plain[d[i]] {
			i++
		}
		if i == len(d) {
			if !complete {
				return nil, 0, errShort
			}
			break
		}
		c := d[i]
		switch {
		case c == '<' && mode == charsText, c == '"' && mode == charsAttrQuot, c == '\'' && mode == charsAttrApos:
		case c >= utf8.RuneSelf:
			if !complete && !utf8.FullRune(d[i:]) {
				return nil, 0, errShort
			}
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				return nil, 0, s.errorAt(i, "invalid UTF-8")
			}
			if !isInCharacterRange(r) {
				return nil, 0, s.errorAt(i, "illegal character code %U", r)
			}
			i += size
			continue
		case c == ']':
			if len(d)-i < 3 && !complete {
				return nil, 0, errShort
			}
			if len(d)-i >= 3 && d[i+1] == ']' && d[i+2] == '>' {
				return nil, 0, s.errorAt(i, "unescaped ]]> not in CDATA section")
			}
			i++
			continue
		case c == '<':
			return nil, 0, s.errorAt(i, "unescaped < inside quoted string")
		case c == '\r', c == '&':
			if c == '\r' && i+1 == len(d) && !complete {
				return nil, 0, errShort
			}
			if from < 0 {
				from = len(s.scratch)
			}
			s.scratch = append(s.scratch, d[copied:i]...)
			if c == '\r' {
				s.scratch = append(s.scratch, '\n')
				if i++; i < len(d) && d[i] == '\n' {
					i++
				}
			} else {
				r, n, err := s.entity(d, i, complete)
				if err != nil {
					return nil, 0, err
				}
				s.scratch = utf8.AppendRune(s.scratch, r)
				i += n
			}
			copied = i
			continue
		default:
			return nil, 0, s.errorAt(i, "illegal character code %U", rune(c))
		}
		break // at the end
	}
	if from < 0 {
		return d[start:i], i, nil
	}
	s.scratch = append(s.scratch, d[copied:i]...)
	return s.scratch[from:], i, nil
}

// entity decodes the entity or character reference at d[i] ('&') and returns its character
// and length. Only the five predefined entities exist: no DOCTYPE is read for more. A
// reference must name a character XML allows; encoding/xml lets one to a surrogate through as
// U+FFFD, the scanner refuses it. At the end of d it returns errShort unless d is complete.
func (s *xmlScanner) entity(d []byte, i int, complete bool) (rune, int, error) {
	j := i + 1
	if j < len(d) && d[j] == '#' {
		j++
		base := uint64(10)
		if j < len(d) && d[j] == 'x' {
			base, j = 16, j+1
		}
		digits := j
		var v uint64
		for ; j < len(d); j++ {
			c, ok := digitValue(d[j], base)
			if !ok {
				break
			}
			if v = v*base + c; v > unicode.MaxRune {
				v = unicode.MaxRune + 1 // no overflow, however many digits follow
			}
		}
		switch {
		case j == len(d) && !complete:
			return 0, 0, errShort
		case j == len(d) || d[j] != ';':
			return 0, 0, s.errorAt(i, "invalid character entity %s (no semicolon)", d[i:j])
		case j == digits || v > unicode.MaxRune:
			return 0, 0, s.errorAt(i, "invalid character entity %s", d[i:j+1])
		case 0xD800 <= v && v <= 0xDFFF:
			return 0, 0, s.errorAt(i, "character reference %s to a surrogate", d[i:j+1])
		case !isInCharacterRange(rune(v)):
			return 0, 0, s.errorAt(i, "illegal character code %U", rune(v))
		}
		return rune(v), j + 1 - i, nil
	}
	for j < len(d) && nameScan[d[j]] {
		j++
	}
	switch {
	case j == len(d) && !complete:
		return 0, 0, errShort
	case j == len(d) || d[j] != ';':
		return 0, 0, s.errorAt(i, "invalid character entity %s (no semicolon)", d[i:j])
	}
	var r rune
	switch string(d[i+1 : j]) {
	case "lt":
		r = '<'
	case "gt":
		r = '>'
	case "amp":
		r = '&'
	case "apos":
		r = '\''
	case "quot":
		r = '"'
	default:
		return 0, 0, s.errorAt(i, "invalid character entity %s", d[i:j+1])
	}
	return r, j + 1 - i, nil
}

// digitValue is the value of the digit c in base 10 or 16 (a-f, A-F).
func digitValue(c byte, base uint64) (uint64, bool) {
	switch {
	case '0' <= c && c <= '9':
		return uint64(c - '0'), true
	case base == 16 && 'a' <= c && c <= 'f':
		return uint64(c-'a') + 10, true
	case base == 16 && 'A' <= c && c <= 'F':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}

// isInCharacterRange reports whether r is a character XML 1.0 allows (production Char).
func isInCharacterRange(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}
