package badges

import (
	"strings"
	"unicode/utf8"
)

// ellipsis ends a cut text; it is 9 pixels wide in the table.
const ellipsis = "…"

// Drawable is s as the SVG will show it, so every drawn text is measured in the form that is
// drawn and its box and textLength fit: a character XML cannot carry (a control character, a
// byte that is not UTF-8, U+FFFE, U+FFFF) is U+FFFD, as the XML escaping would write it; and
// white space is what SVG's default white-space handling makes of it — tabs and line breaks
// are spaces, runs of spaces are one, and none leads or trails.
func Drawable(s string) string {
	plain := len(s) == 0 || s[0] != ' ' && s[len(s)-1] != ' '
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c >= 0x20 && c < 0x7f && !(c == ' ' && s[i+1] == ' ')
	}
	if plain {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			space = b.Len() > 0
			continue
		case !(r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF):
			r = utf8.RuneError
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Fit is s in drawable form (Drawable), cut to fit in max pixels (by measured width, not by
// characters), ending in an ellipsis when anything was cut.
func Fit(s string, max int) string {
	s = Drawable(s)
	if TextWidth(s) <= float64(max) {
		return s
	}
	room := float64(max) - runeWidth('…')
	w := 0.0
	for i, r := range s {
		if w += runeWidth(r); w > room {
			return s[:i] + ellipsis
		}
	}
	return s
}

// Clip is s cut to at most n characters, ending in an ellipsis when anything was cut.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k] + ellipsis
		}
		i++
	}
	return s
}
