package rpmout

import (
	"bufio"
	"strconv"
	"unicode/utf8"
)

// xmlWriter writes XML text the way createrepo_c's libxml2 does: text escapes & < > and CR,
// attribute values also " and TAB, LF, CR as character references. The rpm-md files are written
// by hand, not with encoding/xml, to get createrepo_c's exact layout and because they are the hot
// path of publishing. A character XML cannot carry (a control character, invalid UTF-8,
// U+FFFE/U+FFFF) becomes U+FFFD, so any package metadata gives a well-formed document.
type xmlWriter struct {
	w *bufio.Writer
}

func (x xmlWriter) raw(s string) { x.w.WriteString(s) }

// text writes s as character data.
func (x xmlWriter) text(s string) { x.escape(s, false) }

// attr writes ` name="value"`.
func (x xmlWriter) attr(name, value string) {
	x.w.WriteByte(' ')
	x.w.WriteString(name)
	x.w.WriteString(`="`)
	x.escape(value, true)
	x.w.WriteByte('"')
}

// intAttr writes ` name="n"`.
func (x xmlWriter) intAttr(name string, n int64) {
	x.w.WriteByte(' ')
	x.w.WriteString(name)
	x.w.WriteString(`="`)
	var buf [24]byte
	x.w.Write(strconv.AppendInt(buf[:0], n, 10))
	x.w.WriteByte('"')
}

// element writes <name>text</name>.
func (x xmlWriter) element(indent, name, text string) {
	x.w.WriteString(indent)
	x.w.WriteByte('<')
	x.w.WriteString(name)
	x.w.WriteByte('>')
	x.escape(text, false)
	x.w.WriteString("</")
	x.w.WriteString(name)
	x.w.WriteString(">\n")
}

// plain marks the bytes escape copies as they are: printable ASCII but for & < > ".
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '&' && c != '<' && c != '>' && c != '"'
	}
	return t
}()

func (x xmlWriter) escape(s string, inAttr bool) {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		var esc string
		width := 1
		switch {
		case c == '&':
			esc = "&amp;"
		case c == '<':
			esc = "&lt;"
		case c == '>':
			esc = "&gt;"
		case c == '"':
			if inAttr {
				esc = "&quot;"
			}
		case c == '\r':
			esc = "&#13;"
		case c == '\n':
			if inAttr {
				esc = "&#10;"
			}
		case c == '\t':
			if inAttr {
				esc = "&#9;"
			}
		case c < 0x20:
			esc = "\uFFFD"
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			width = n
			if r == utf8.RuneError && n == 1 || r == 0xFFFE || r == 0xFFFF {
				esc = "\uFFFD"
			}
		}
		if esc != "" {
			x.w.WriteString(s[last:i])
			x.w.WriteString(esc)
			last = i + width
		}
		i += width
	}
	x.w.WriteString(s[last:])
}
