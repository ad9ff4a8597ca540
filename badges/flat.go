package badges

// Badge is a two-sided flat badge: a grey label on the left, a message on a coloured ground on
// the right, each optionally a link (followed when the SVG is opened directly or embedded with
// <object>; an <img> ignores links).
type Badge struct {
	Label, Message string
	Colour         string
	// Title is the accessible text (aria-label and <title>); "" means "Label: Message". It
	// carries what truncation took off a long label.
	Title                  string
	LabelLink, MessageLink string
}

// MaxLabelWidth is the widest a badge's label is drawn, in pixels; a longer label is cut and
// ends in an ellipsis (the whole of it is in the title, up to MaxTitle characters).
const MaxLabelWidth = 300

// MaxTitle is the most characters of a label a title carries.
const MaxTitle = 256

// SVG draws b in shields' flat style. The geometry is shields': each text is measured
// (PreferredWidth) and padded by 5 pixels on either side; the label's text centre is one pixel
// right of its box's centre and the message's one pixel left of the seam.
func (b Badge) SVG() []byte {
	label, msg := Fit(b.Label, MaxLabelWidth), Drawable(b.Message)
	title := b.Title
	if title == "" {
		title = Clip(b.Label, MaxTitle) + ": " + msg
	}
	labelW, msgW := PreferredWidth(label), PreferredWidth(msg)
	left, right := labelW+2*pad, msgW+2*pad
	width := left + right
	c := newCanvas()
	c.start(width, Height, title)
	c.flatLook(width, Height)
	c.Group(`clip-path="url(#r)"`)
	c.rect(0, 0, left, Height, fill(LabelColour))
	c.rect(left, 0, right, Height, attr("fill", b.Colour))
	c.rect(0, 0, width, Height, `fill="url(#s)"`)
	c.Gend()
	c.textGroup("middle")
	c.side(b.LabelLink, label, 10*(1+pad)+5*labelW, 0, left, labelW)
	c.side(b.MessageLink, msg, 10*(left-1+pad)+5*msgW, left, right, msgW)
	c.Gend()
	c.End()
	return c.done()
}

// side writes one side's text centred at x10, inside a link over the side's box (x, width)
// when href is set.
func (c *canvas) side(href, s string, x10, x, width, textW int) {
	if href != "" {
		c.linkStart(href, s, x, 0, width, Height)
	}
	c.text(x10, 0, s, textW)
	if href != "" {
		c.linkEnd()
	}
}
