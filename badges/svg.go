package badges

import (
	"bytes"
	"encoding/xml"
	"strconv"
	"strings"
	"sync"

	svg "github.com/ajstarks/svgo"
)

// The pieces every drawing shares: the canvas over a pooled buffer, attribute escaping, the
// flat look's gradient and clip, text with its shadow, and links.
//
// svgo writes the document and its structure (start, title, clip path, groups, end) and, once
// at start, the parts that never change (the gradient, the text groups' openings). The two
// elements a drawing has many of — rect and text, two to six per badge, about 1,500 in a 50×10
// table — are written by rect and text below in exactly svgo's markup, with strconv instead of
// svgo's three fmt calls per element: with svgo's Rect and Text a 50×10 table took 3.2 ms (the
// budget is 2) and a project badge 22 µs (the budget is 20); the goldens did not change by a
// byte when these replaced them.

// FontFamily is shields' font stack; textLength pins every text to the width measured from
// the Verdana table, whichever of these the viewer has.
const FontFamily = "Verdana,Geneva,DejaVu Sans,sans-serif"

// Height is a badge's height and a table row's.
const Height = 20

// pad is the space left and right of a text in its box.
const pad = 5

// Attributes of the shadow and of the text itself (drawn at ten times the size and scaled
// down, for positions in tenths of a pixel), ready to join.
const (
	shadowAttrs = `aria-hidden="true" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="`
	textAttrs   = `transform="scale(.1)" textLength="`
)

// gradient is the flat look's gradient (id s): light at the top, dark at the bottom, both
// faint; svgo draws it once.
var gradient = func() []byte {
	var b bytes.Buffer
	svg.New(&b).LinearGradient("s", 0, 0, 0, 100, []svg.Offcolor{{Offset: 0, Color: "#bbb", Opacity: .1}, {Offset: 100, Color: "#000", Opacity: .1}})
	return b.Bytes()
}()

// textGroups are the openings of the groups texts sit in: white, in shields' fonts, centred
// or starting at their x.
var textGroups = func() map[string][]byte {
	m := map[string][]byte{}
	for _, anchor := range []string{"middle", "start"} {
		var b bytes.Buffer
		svg.New(&b).Group(`fill="#fff" text-anchor="` + anchor + `" font-family="` + FontFamily +
			`" text-rendering="geometricPrecision" font-size="110"`)
		m[anchor] = b.Bytes()
	}
	return m
}()

var canvases = sync.Pool{New: func() any {
	c := &canvas{buf: new(bytes.Buffer)}
	c.SVG = svg.New(c.buf)
	return c
}}

// canvas is an SVG being written.
type canvas struct {
	*svg.SVG
	buf     *bytes.Buffer
	scratch []byte
}

func newCanvas() *canvas {
	c := canvases.Get().(*canvas)
	c.buf.Reset()
	return c
}

// done returns a copy of what was written and gives the canvas back.
func (c *canvas) done() []byte {
	out := bytes.Clone(c.buf.Bytes())
	canvases.Put(c)
	return out
}

// attr is name="value" with value escaped for an attribute (quotes, ampersands, angle
// brackets, line breaks; characters XML cannot carry become U+FFFD).
func attr(name, value string) string {
	if !needsEscape(value) {
		return name + `="` + value + `"`
	}
	var b strings.Builder
	b.Grow(len(name) + len(value) + 16)
	b.WriteString(name)
	b.WriteString(`="`)
	_ = xml.EscapeText(&b, []byte(value))
	b.WriteByte('"')
	return b.String()
}

// needsEscape reports whether s has anything XML escaping would change: a metacharacter, a
// control character or a byte outside ASCII (which may be invalid UTF-8).
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f, c == '&', c == '<', c == '>', c == '"', c == '\'':
			return true
		}
	}
	return false
}

// fill is the fill attribute of a colour of ours (no escaping needed).
func fill(colour string) string { return `fill="` + colour + `"` }

// start opens the document: its size and, for assistive technology, the role of an image with
// the accessible text as aria-label and <title>. Every drawing keeps role="img", links or not:
// most are shown through <img> (where links do nothing) and read as one picture.
func (c *canvas) start(width, height int, text string) {
	c.Start(width, height, `role="img" `+attr("aria-label", text))
	c.Title(text)
}

// flatLook writes the shared gradient (id s) and the rounded clip (id r) of a width×height
// drawing.
func (c *canvas) flatLook(width, height int) {
	c.buf.Write(gradient)
	c.ClipPath(`id="r"`)
	c.Roundrect(0, 0, width, height, 3, 3, `fill="#fff"`)
	c.ClipEnd()
}

// textGroup opens the group all texts sit in, anchored "middle" or "start".
func (c *canvas) textGroup(anchor string) { c.buf.Write(textGroups[anchor]) }

// rect writes svgo's <rect x y width height attrs />.
func (c *canvas) rect(x, y, w, h int, attrs string) {
	b := c.scratch[:0]
	b = append(b, `<rect x="`...)
	b = strconv.AppendInt(b, int64(x), 10)
	b = append(b, `" y="`...)
	b = strconv.AppendInt(b, int64(y), 10)
	b = append(b, `" width="`...)
	b = strconv.AppendInt(b, int64(w), 10)
	b = append(b, `" height="`...)
	b = strconv.AppendInt(b, int64(h), 10)
	b = append(b, `" `...)
	b = append(b, attrs...)
	b = append(b, " />\n"...)
	c.buf.Write(b)
	c.scratch = b
}

// textElement writes svgo's <text x y attrs >s</text>, s escaped as character data.
func (c *canvas) textElement(x, y int, s, attrs1, attrs2 string) {
	b := c.scratch[:0]
	b = append(b, `<text x="`...)
	b = strconv.AppendInt(b, int64(x), 10)
	b = append(b, `" y="`...)
	b = strconv.AppendInt(b, int64(y), 10)
	b = append(b, `" `...)
	b = append(b, attrs1...)
	b = append(b, attrs2...)
	b = append(b, " >"...)
	c.buf.Write(b)
	c.scratch = b
	if needsEscape(s) {
		_ = xml.EscapeText(c.buf, []byte(s))
	} else {
		c.buf.WriteString(s)
	}
	c.buf.WriteString("</text>\n")
}

// text writes s at x10 (tenths of a pixel) on the row starting at y, twice: a shadow one pixel
// lower and the text itself, both stretched to width (its measured width in pixels).
func (c *canvas) text(x10, y int, s string, width int) {
	length := strconv.Itoa(width*10) + `"`
	c.textElement(x10, 10*y+150, s, shadowAttrs, length)
	c.textElement(x10, 10*y+140, s, textAttrs, length)
}

// linkStart opens a link to href that opens in a new window, with a transparent rectangle
// over the x,y,w,h area so the whole area takes the click (it must not be "none", or clicks fall
// through); title names the link's target for assistive technology.
func (c *canvas) linkStart(href, title string, x, y, w, h int) {
	c.buf.WriteString(`<a target="_blank" ` + attr("xlink:href", href) + " " + attr("xlink:title", title) + ">\n")
	c.rect(x, y, w, h, `fill="#000" fill-opacity="0"`)
}

func (c *canvas) linkEnd() { c.LinkEnd() }
