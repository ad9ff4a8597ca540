package badges

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The goldens as documents: each is parsed (strict encoding/xml, the way a browser's XML
// parser reads an image/svg+xml response) and held to what the issue asks of the SVG —
// well-formed, SVG 1.1, nothing that can run script, every name escaped, accessible — and to
// shields' flat geometry, measured against the Verdana table. The byte-for-byte golden test
// says a drawing did not change; this one says what it is.

const (
	svgNS   = "http://www.w3.org/2000/svg"
	xlinkNS = "http://www.w3.org/1999/xlink"
)

// svgAttrs is, for each element the drawings use, the attributes SVG 1.1 allows on it that
// they use (a whitelist, so a new attribute is a decision: look it up in SVG 1.1 and add it
// here). xlink attributes are spelled with the xlink prefix, namespace declarations as written.
//
// role, aria-label and aria-hidden are not in SVG 1.1's DTD: they are WAI-ARIA attributes,
// which SVG 2 and the ARIA graphics module adopted and which SVG 1.1 viewers ignore as
// unknown attributes (shields draws them too). They are what screen readers read, so the
// drawings keep them; they are the only attributes here that SVG 1.1 does not itself define.
var svgAttrs = map[string][]string{
	"svg":            {"width", "height", "xmlns", "xmlns:xlink", "role", "aria-label"},
	"title":          {},
	"linearGradient": {"id", "x1", "y1", "x2", "y2"},
	"stop":           {"offset", "stop-color", "stop-opacity"},
	"clipPath":       {"id"},
	"rect":           {"x", "y", "width", "height", "rx", "ry", "fill", "fill-opacity"},
	"g":              {"clip-path", "fill", "text-anchor", "font-family", "text-rendering", "font-size"},
	"text":           {"x", "y", "textLength", "transform", "fill", "fill-opacity", "aria-hidden"},
	"a":              {"target", "xlink:href", "xlink:title"},
}

// rectFills are the only grounds a drawing paints: the label grey, the five state colours,
// white (clip mask and separator lines), black (transparent hit areas of links) and the
// gradient overlay.
var rectFills = map[string]bool{
	LabelColour: true, ColourPassing: true, ColourFailed: true, ColourBlocked: true,
	ColourBuilding: true, ColourInactive: true, "#fff": true, "#000": true, "url(#s)": true,
}

// textFills are the text colours: white on every ground, and the shadow's near-black (shields'
// brightness rule gives white text on all five colours and on the grey).
var textFills = map[string]bool{"#fff": true, "#010101": true}

// hostile is, for each golden drawn from input holding a '<', that input's text: it must
// come back as character data, and no other golden may hold a '<' anywhere after parsing.
var hostile = map[string]string{
	"package-script-name":     "<script>",
	"project-label-metachars": `<script>alert("x")</script> & 'co'`,
	"project-label-10k":       "ÿ<&ÿ<&",
	"table-long-names":        "<script>alert(1)</script>",
}

// element is one parsed element.
type element struct {
	name     xml.Name
	attrs    map[string]string // by attrName
	children []*element
	text     string // the character data directly inside it
}

// attrName spells an attribute as the document does: xlink:href, xmlns:xlink, or the bare
// name; an attribute in any other namespace keeps its namespace, which no whitelist allows.
func attrName(n xml.Name) string {
	switch n.Space {
	case "":
		return n.Local
	case xlinkNS:
		return "xlink:" + n.Local
	case "xmlns":
		return "xmlns:" + n.Local
	}
	return n.Space + ":" + n.Local
}

// parseSVG reads data strictly: well-formed, one root, no DOCTYPE (so no entity can be
// declared), no processing instruction but the XML declaration, and no attribute twice (a
// well-formedness rule encoding/xml does not enforce).
func parseSVG(data []byte) (*element, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var root *element
	var open []*element
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &element{name: tok.Name, attrs: map[string]string{}}
			for _, a := range tok.Attr {
				k := attrName(a.Name)
				if _, dup := e.attrs[k]; dup {
					return nil, fmt.Errorf("<%s> has attribute %s twice", tok.Name.Local, k)
				}
				e.attrs[k] = a.Value
			}
			switch {
			case len(open) > 0:
				parent := open[len(open)-1]
				parent.children = append(parent.children, e)
			case root != nil:
				return nil, errors.New("a second root element")
			default:
				root = e
			}
			open = append(open, e)
		case xml.EndElement:
			open = open[:len(open)-1]
		case xml.CharData:
			if len(open) > 0 {
				open[len(open)-1].text += string(tok)
			} else if len(bytes.TrimSpace(tok)) > 0 {
				return nil, fmt.Errorf("text outside the root: %q", tok)
			}
		case xml.Directive:
			return nil, fmt.Errorf("directive <!%s>: no DOCTYPE or entity belongs in a badge", tok)
		case xml.ProcInst:
			if tok.Target != "xml" || root != nil {
				return nil, fmt.Errorf("processing instruction <?%s?>", tok.Target)
			}
		}
	}
	if root == nil {
		return nil, errors.New("no root element")
	}
	return root, nil
}

// walk calls f on e and every element under it, in document order.
func (e *element) walk(f func(*element)) {
	f(e)
	for _, c := range e.children {
		c.walk(f)
	}
}

// all is every element named local under e (e included), in document order.
func (e *element) all(local string) []*element {
	var out []*element
	e.walk(func(x *element) {
		if x.name.Local == local {
			out = append(out, x)
		}
	})
	return out
}

// intAttr is e's attribute k as an integer, failing the test when it is not one.
func intAttr(t *testing.T, e *element, k string) int {
	t.Helper()
	v, err := strconv.Atoi(e.attrs[k])
	if err != nil {
		t.Fatalf("<%s %s=%q>: not an integer", e.name.Local, k, e.attrs[k])
	}
	return v
}

// goldenSVGs is every testdata/*.svg by name (without .svg), read.
func goldenSVGs(t *testing.T) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.svg"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no goldens in testdata (%v)", err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(p), ".svg")] = b
	}
	for _, c := range goldenCases {
		if out[c.name] == nil {
			t.Errorf("golden case %s has no testdata/%s.svg", c.name, c.name)
		}
	}
	return out
}

// TestGoldensAreSVG11 parses every golden and checks the document: root, accessibility,
// elements and attributes, script, escaping, references, colours and text lengths.
func TestGoldensAreSVG11(t *testing.T) {
	for name, data := range goldenSVGs(t) {
		t.Run(name, func(t *testing.T) {
			if bytes.Contains(bytes.ToLower(data), []byte("<script")) {
				t.Error("the raw document holds <script")
			}
			root, err := parseSVG(data)
			if err != nil {
				t.Fatalf("not well-formed XML: %v", err)
			}
			checkRoot(t, root)
			checkElements(t, name, root)
			checkReferences(t, root)
			checkColours(t, root)
			checkTextLengths(t, name, root)
		})
	}
}

// checkRoot: an <svg> in the SVG namespace with a size, role="img", an aria-label, and a
// <title> first saying the same (what assistive technology reads for an <img>).
func checkRoot(t *testing.T, root *element) {
	t.Helper()
	if root.name != (xml.Name{Space: svgNS, Local: "svg"}) {
		t.Fatalf("root is %v, want svg in %s", root.name, svgNS)
	}
	if w, h := intAttr(t, root, "width"), intAttr(t, root, "height"); w <= 0 || h <= 0 {
		t.Errorf("size %d×%d", w, h)
	}
	if root.attrs["xmlns:xlink"] != xlinkNS {
		t.Errorf("xmlns:xlink=%q", root.attrs["xmlns:xlink"])
	}
	if root.attrs["role"] != "img" {
		t.Errorf(`role=%q, want "img"`, root.attrs["role"])
	}
	label := root.attrs["aria-label"]
	if strings.TrimSpace(label) == "" {
		t.Error("no aria-label")
	}
	if len(root.children) == 0 || root.children[0].name.Local != "title" {
		t.Fatal("the first child is not <title>")
	}
	if got := root.children[0].text; got != label {
		t.Errorf("<title> %q differs from aria-label %q", got, label)
	}
}

// checkElements: SVG 1.1 elements with their whitelisted attributes only, nothing that runs
// script or embeds foreign content, text and title holding only text, and no '<' in any text
// or attribute unless the golden was drawn from input holding it — then that input is there
// as character data.
func checkElements(t *testing.T, name string, root *element) {
	t.Helper()
	allowed := map[string]map[string]bool{}
	for el, attrs := range svgAttrs {
		allowed[el] = map[string]bool{}
		for _, a := range attrs {
			allowed[el][a] = true
		}
	}
	var chars strings.Builder
	root.walk(func(e *element) {
		local := e.name.Local
		switch {
		case strings.EqualFold(local, "script") || strings.EqualFold(local, "foreignObject"):
			t.Errorf("<%s> element", local)
			return
		case e.name.Space != svgNS:
			t.Errorf("<%s> is in namespace %q, not SVG's", local, e.name.Space)
		case allowed[local] == nil:
			t.Errorf("<%s> is not an element the drawings use (SVG 1.1 whitelist)", local)
		}
		if (local == "text" || local == "title") && len(e.children) > 0 {
			t.Errorf("<%s> has child elements", local)
		}
		for k, v := range e.attrs {
			if strings.HasPrefix(strings.ToLower(k), "on") {
				t.Errorf("<%s> has event handler %s", local, k)
			} else if !allowed[local][k] {
				t.Errorf("<%s> has attribute %s, not whitelisted for it", local, k)
			}
			if strings.Contains(v, "<") && hostile[name] == "" {
				t.Errorf("<%s %s=%q> holds '<'", local, k, v)
			}
		}
		if strings.Contains(e.text, "<") && hostile[name] == "" {
			t.Errorf("<%s> text %q holds '<'", local, e.text)
		}
		chars.WriteString(e.text)
	})
	if h := hostile[name]; h != "" && !strings.Contains(chars.String(), h) {
		t.Errorf("the input %q is not in the character data", h)
	}
}

// checkReferences: ids unique, and every url(#id) names one.
func checkReferences(t *testing.T, root *element) {
	t.Helper()
	ids := map[string]bool{}
	root.walk(func(e *element) {
		if id, ok := e.attrs["id"]; ok {
			if ids[id] {
				t.Errorf("id %q twice", id)
			}
			ids[id] = true
		}
	})
	root.walk(func(e *element) {
		for k, v := range e.attrs {
			if ref, ok := strings.CutPrefix(v, "url(#"); ok && !ids[strings.TrimSuffix(ref, ")")] {
				t.Errorf("<%s %s=%q> names no element", e.name.Local, k, v)
			}
		}
	})
}

// checkColours: rects paint only rectFills, texts and text groups only textFills.
func checkColours(t *testing.T, root *element) {
	t.Helper()
	root.walk(func(e *element) {
		fill, ok := e.attrs["fill"]
		switch {
		case !ok:
		case e.name.Local == "rect" && !rectFills[fill]:
			t.Errorf("a rect is filled %q", fill)
		case (e.name.Local == "text" || e.name.Local == "g") && !textFills[fill]:
			t.Errorf("a %s is filled %q", e.name.Local, fill)
		}
	})
}

// checkTextLengths: each text is stretched to exactly what the Verdana table measures for
// it, in tenths of a pixel (the texts are drawn at ten times the size and scaled by .1).
func checkTextLengths(t *testing.T, name string, root *element) {
	t.Helper()
	for _, e := range root.all("text") {
		if _, ok := e.attrs["textLength"]; !ok {
			continue
		}
		got, want := intAttr(t, e, "textLength"), 10*PreferredWidth(e.text)
		if got != want {
			t.Errorf("text %q: textLength %d, the Verdana table says %d", e.text, got, want)
		}
	}
}

// flatBadge is a two-sided badge as the document draws it.
type flatBadge struct {
	width, height              int
	clip                       *element // the rounded rect of clipPath r
	left, right                *element // the two grounds
	overlay                    *element // the gradient over both
	label, message             *element // the visible texts (not the shadows)
	labelShadow, messageShadow *element
}

// readBadge finds a badge's parts: the clip group's three rects and the four texts (shadow
// and text of each side, in that order).
func readBadge(t *testing.T, root *element) flatBadge {
	t.Helper()
	b := flatBadge{width: intAttr(t, root, "width"), height: intAttr(t, root, "height")}
	for _, cp := range root.all("clipPath") {
		if cp.attrs["id"] == "r" && len(cp.children) == 1 {
			b.clip = cp.children[0]
		}
	}
	var grounds []*element
	for _, g := range root.all("g") {
		if g.attrs["clip-path"] == "url(#r)" {
			grounds = g.all("rect")
		}
	}
	texts := root.all("text")
	if b.clip == nil || len(grounds) != 3 || len(texts) != 4 {
		t.Fatalf("not a two-sided badge: clip %v, %d rects under the clip, %d texts", b.clip != nil, len(grounds), len(texts))
	}
	b.left, b.right, b.overlay = grounds[0], grounds[1], grounds[2]
	b.labelShadow, b.label, b.messageShadow, b.message = texts[0], texts[1], texts[2], texts[3]
	return b
}

// TestBadgeGeometry checks every golden that is not a table against shields' flat layout
// (badges-notes.md section 2): 20 high, corners of radius 3, each side its text's measured
// width plus 5 pixels either side, the texts centred where shields centres them, and the
// shadow one pixel below its text.
func TestBadgeGeometry(t *testing.T) {
	for name, data := range goldenSVGs(t) {
		if strings.HasPrefix(name, "table-") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			root, err := parseSVG(data)
			if err != nil {
				t.Fatal(err)
			}
			b := readBadge(t, root)
			if b.height != Height {
				t.Errorf("height %d, want %d", b.height, Height)
			}
			if x, y, w, h := intAttr(t, b.clip, "x"), intAttr(t, b.clip, "y"), intAttr(t, b.clip, "width"), intAttr(t, b.clip, "height"); x != 0 || y != 0 || w != b.width || h != b.height {
				t.Errorf("clip %d,%d %d×%d, want the whole %d×%d", x, y, w, h, b.width, b.height)
			}
			if b.clip.attrs["rx"] != "3" || b.clip.attrs["ry"] != "3" {
				t.Errorf("corner radius rx=%q ry=%q, want 3", b.clip.attrs["rx"], b.clip.attrs["ry"])
			}
			left, right := intAttr(t, b.left, "width"), intAttr(t, b.right, "width")
			if intAttr(t, b.left, "x") != 0 || intAttr(t, b.right, "x") != left {
				t.Errorf("sides at x=%s and x=%s, want 0 and %d", b.left.attrs["x"], b.right.attrs["x"], left)
			}
			if left+right != b.width || intAttr(t, b.overlay, "width") != b.width || b.overlay.attrs["fill"] != "url(#s)" {
				t.Errorf("sides %d + %d, overlay %s (%s), badge %d wide", left, right, b.overlay.attrs["width"], b.overlay.attrs["fill"], b.width)
			}
			if b.left.attrs["fill"] != LabelColour {
				t.Errorf("label side %q, want %q", b.left.attrs["fill"], LabelColour)
			}
			lw, mw := PreferredWidth(b.label.text), PreferredWidth(b.message.text)
			if left != lw+2*pad || right != mw+2*pad {
				t.Errorf("sides %d and %d wide, want %d and %d (texts %q, %q)", left, right, lw+2*pad, mw+2*pad, b.label.text, b.message.text)
			}
			// shields: labelX = 10*(1 + labelWidth/2 + 5), messageX = 10*(left-1 + messageWidth/2 + 5).
			for _, c := range []struct {
				text, shadow *element
				x            int
			}{{b.label, b.labelShadow, 10*(1+pad) + 5*lw}, {b.message, b.messageShadow, 10*(left-1+pad) + 5*mw}} {
				if got := intAttr(t, c.text, "x"); got != c.x || intAttr(t, c.shadow, "x") != c.x {
					t.Errorf("%q at x=%d (shadow %s), want %d", c.text.text, got, c.shadow.attrs["x"], c.x)
				}
				if intAttr(t, c.text, "y") != 140 || intAttr(t, c.shadow, "y") != 150 || c.shadow.text != c.text.text {
					t.Errorf("%q at y=%s, shadow %q at y=%s; want 140 and 150", c.text.text, c.text.attrs["y"], c.shadow.text, c.shadow.attrs["y"])
				}
				if c.shadow.attrs["aria-hidden"] != "true" || c.text.attrs["aria-hidden"] != "" {
					t.Errorf("%q: aria-hidden %q on the shadow, %q on the text", c.text.text, c.shadow.attrs["aria-hidden"], c.text.attrs["aria-hidden"])
				}
			}
			if name == "badge-passing" {
				// badges-notes.md section 2, shields' own `build | passing`.
				got := []int{left, right, b.width, intAttr(t, b.label, "x"), intAttr(t, b.message, "x"),
					intAttr(t, b.label, "textLength"), intAttr(t, b.message, "textLength")}
				if want := []int{37, 51, 88, 195, 615, 270, 410}; fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("left, right, width, label x, message x, textLengths = %v, shields' are %v", got, want)
				}
			}
		})
	}
}
