package badges

import "unicode/utf8"

// ellipsis ends a cut text; it is 9 pixels wide in the table.
const ellipsis = "…"

// Fit is s cut to fit in max pixels (by measured width, not by characters), ending in an
// ellipsis when anything was cut.
func Fit(s string, max int) string {
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
