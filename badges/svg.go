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

// FontFamily is shields' font stack; textLength pins every text to the width measured from
// the Verdana table, whichever of these the viewer has.
const FontFamily = "Verdana,Geneva,DejaVu Sans,sans-serif"

// Height is a badge's height and a table row's.
const Height = 20

// pad is the space left and right of a text in its box.
const pad = 5

var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// canvas is an SVG being written.
type canvas struct {
	*svg.SVG
	buf *bytes.Buffer
}

func newCanvas() *canvas {
	buf := buffers.Get().(*bytes.Buffer)
	buf.Reset()
	return &canvas{SVG: svg.New(buf), buf: buf}
}

// done returns a copy of what was written and gives the buffer back.
func (c *canvas) done() []byte {
	out := bytes.Clone(c.buf.Bytes())
	buffers.Put(c.buf)
	return out
}

// attr is name="value" with value escaped for an attribute (quotes, ampersands, angle
// brackets, line breaks; characters XML cannot carry become U+FFFD).
func attr(name, value string) string {
	var b strings.Builder
	b.Grow(len(name) + len(value) + 3)
	b.WriteString(name)
	b.WriteString(`="`)
	_ = xml.EscapeText(&b, []byte(value))
	b.WriteByte('"')
	return b.String()
}

func num(name string, v int) string { return name + `="` + strconv.Itoa(v) + `"` }

// start opens the document: its size and, for assistive technology, the role of an image with
// the accessible text as aria-label and <title>. Every drawing keeps role="img", links or not:
// most are shown through <img> (where links do nothing) and read as one picture.
func (c *canvas) start(width, height int, text string) {
	c.Start(width, height, `role="img"`, attr("aria-label", text))
	c.Title(text)
}

// flatLook writes the shared gradient (id s) and the rounded clip (id r) of a width×height
// drawing.
func (c *canvas) flatLook(width, height int) {
	c.LinearGradient("s", 0, 0, 0, 100, []svg.Offcolor{{Offset: 0, Color: "#bbb", Opacity: .1}, {Offset: 100, Color: "#000", Opacity: .1}})
	c.ClipPath(`id="r"`)
	c.Roundrect(0, 0, width, height, 3, 3, `fill="#fff"`)
	c.ClipEnd()
}

// textGroup opens the group all texts sit in (white, centred unless start says otherwise,
// drawn at ten times the size and scaled down, for positions in tenths of a pixel).
func (c *canvas) textGroup(anchor string) {
	c.Group(`fill="#fff"`, `text-anchor="`+anchor+`"`, `font-family="`+FontFamily+`"`,
		`text-rendering="geometricPrecision"`, `font-size="110"`)
}

// text writes s at x10 (tenths of a pixel) on the row starting at y, twice: a shadow one pixel
// lower and the text itself, both stretched to width (its measured width in pixels).
func (c *canvas) text(x10, y int, s string, width int) {
	length := num("textLength", width*10)
	c.Text(x10, 10*y+150, s, `aria-hidden="true"`, `fill="#010101"`, `fill-opacity=".3"`, `transform="scale(.1)"`, length)
	c.Text(x10, 10*y+140, s, `transform="scale(.1)"`, length)
}

// linkStart opens a link to href that opens in a new window, with a transparent rectangle
// over the x,y,w,h area so the whole area takes the click (it must not be "none", or clicks fall
// through); title names the link's target for assistive technology.
func (c *canvas) linkStart(href, title string, x, y, w, h int) {
	c.buf.WriteString(`<a target="_blank" ` + attr("xlink:href", href) + " " + attr("xlink:title", title) + ">\n")
	c.Rect(x, y, w, h, `fill="#000"`, `fill-opacity="0"`)
}

func (c *canvas) linkEnd() { c.LinkEnd() }
