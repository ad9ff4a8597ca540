package badges

import (
	_ "embed"
	"encoding/binary"
	"sort"
)

// The text widths of 11 px Verdana, the font shields.io measures its flat badges in, so a
// badge of ours placed beside one of theirs has the same text metrics.
//
// shields does not measure with a font engine: it sums per-character widths from a table that
// headless Chromium measured (canvas measureText, "11px Verdana") for every code point, with no
// kerning. verdana11.bin is that table (anafanafo's verdana-11px-normal.json, MIT, converted by
// gen_widths.go): 11,241 ranges of code points with one width each, in hundredths of a pixel.
// No font file is needed at run time (Verdana may not be redistributed, and its stand-ins
// measure differently).

//go:generate go run gen_widths.go verdana-11px-normal.json

//go:embed verdana11.bin
var verdana11 []byte

// emWidth is the width of "m", what a code point the table lacks counts as (shields' guess).
const emWidth = 10.7

var (
	rangeLo, rangeHi []rune
	rangeWidth       []float64
	// latin is the width of every code point below 256, the common case, without a search.
	latin [256]float64
)

func init() {
	prev := rune(-1)
	for b := verdana11; len(b) > 0; {
		gap, n1 := binary.Uvarint(b)
		span, n2 := binary.Uvarint(b[n1:])
		hundredths, n3 := binary.Uvarint(b[n1+n2:])
		if n1 <= 0 || n2 <= 0 || n3 <= 0 {
			panic("badges: verdana11.bin is corrupt")
		}
		b = b[n1+n2+n3:]
		lo := prev + rune(gap)
		prev = lo + rune(span)
		rangeLo, rangeHi = append(rangeLo, lo), append(rangeHi, prev)
		// hundredths/100 is correctly rounded, so it is the very float64 a JSON parser makes
		// of the table's decimal: sums come out as shields' do, to the last bit.
		rangeWidth = append(rangeWidth, float64(hundredths)/100)
	}
	for r := range latin {
		latin[r] = lookup(rune(r))
	}
}

// lookup is one code point's width: 0 for a control character, the table's width, or the
// width of "m" for a code point the table does not have.
func lookup(r rune) float64 {
	if r <= 31 || r == 127 {
		return 0
	}
	i := sort.Search(len(rangeLo), func(i int) bool { return rangeLo[i] > r }) - 1
	if i >= 0 && r <= rangeHi[i] {
		return rangeWidth[i]
	}
	return emWidth
}

// runeWidth is r's width in 11 px Verdana.
func runeWidth(r rune) float64 {
	if r >= 0 && r < 256 {
		return latin[r]
	}
	return lookup(r)
}

// TextWidth is s's width in 11 px Verdana, summed code point by code point in order, as a
// float64 (the order matters to the last bit, and shields truncates the sum). Bytes that are
// not UTF-8 count as U+FFFD, the character they are drawn as.
func TextWidth(s string) float64 {
	w := 0.0
	for _, r := range s {
		w += runeWidth(r)
	}
	return w
}

// PreferredWidth is the whole-pixel width shields gives a text: the sum truncated, then made
// odd (an odd width centres the text on the pixel grid more often).
func PreferredWidth(s string) int {
	n := int(TextWidth(s))
	if n%2 == 0 {
		n++
	}
	return n
}
