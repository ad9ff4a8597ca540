package metadoc

import (
	"bytes"
	"encoding/xml"
	"fmt"
)

// Bounds on what one document may carry. Each is far above real use (openSUSE:Factory's meta
// names a few dozen people and repositories) and keeps a hostile document cheap: a meta of
// 200,000 <person> entries took 3.4 s to decode and check. The counts are per document, whatever
// the nesting, and are checked while decoding, so a document over a bound stops being read at
// the first element too many.
var (
	// MaxEntries bounds the elements a document repeats, by local name.
	MaxEntries = map[string]int{
		"person":       10000, // project and package roles; a group's members
		"group":        1000,  // group roles
		"repository":   1000,
		"path":         10000, // all repositories' paths together
		"arch":         10000, // all repositories' archs together
		"enable":       10000, // flag entries, all flag blocks together
		"disable":      10000,
		"entry":        10000, // a commit's file list
		"value":        10000, // attribute values
		"attribute":    10000,
		"distribution": 1000,
		"action":       1000, // a request's actions
		"review":       1000, // a request's reviews
	}
	// MaxElements bounds the elements of one document, of any name.
	MaxElements = 100000
	// MaxText bounds the text of one element (a title, a description, a person's name), in
	// bytes as decoded: OBS keeps descriptions in MySQL TEXT columns of 65,535 bytes. A 50 MB
	// description and a 10 MB title used to be stored (issue 32).
	MaxText = 65535
)

// TooManyError says which element went over which bound: too many of it, or (Text) too much
// text in it.
type TooManyError struct {
	Element string // the element's local name; "" for the bound on all elements
	Bound   int
	Text    bool // the bound is MaxText, on the element's text
}

// Error names the element and the bound, the words a client sees.
func (e *TooManyError) Error() string {
	if e.Text {
		return fmt.Sprintf("the text of <%s> is longer than %d bytes: an element carries at most %d", e.Element, e.Bound, e.Bound)
	}
	if e.Element == "" {
		return fmt.Sprintf("more than %d elements: a document carries at most %d", e.Bound, e.Bound)
	}
	return fmt.Sprintf("more than %d <%s> elements: a document carries at most %d", e.Bound, e.Element, e.Bound)
}

// Unmarshal is xml.Unmarshal within MaxEntries and MaxElements: a *TooManyError as soon as the
// document goes over one. Syntax errors read as xml.Unmarshal's.
func Unmarshal(body []byte, v any) error {
	c := &countingReader{d: xml.NewDecoder(bytes.NewReader(body)), seen: map[string]int{}}
	return xml.NewTokenDecoder(c).Decode(v)
}

// countingReader passes the tokens of d on, counting start elements and the text of the one
// open.
type countingReader struct {
	d     *xml.Decoder
	seen  map[string]int
	total int
	open  []string // the names of the elements open, innermost last
	text  int      // the text read since the last tag
}

// Token returns d's next token, or a *TooManyError instead of the element over a bound.
func (c *countingReader) Token() (xml.Token, error) {
	t, err := c.d.Token()
	switch t := t.(type) {
	case xml.StartElement:
		c.text = 0
		if c.total++; c.total > MaxElements {
			return nil, &TooManyError{Bound: MaxElements}
		}
		if bound, ok := MaxEntries[t.Name.Local]; ok {
			if c.seen[t.Name.Local]++; c.seen[t.Name.Local] > bound {
				return nil, &TooManyError{Element: t.Name.Local, Bound: bound}
			}
		}
		c.open = append(c.open, t.Name.Local)
	case xml.EndElement:
		c.text = 0
		if len(c.open) > 0 {
			c.open = c.open[:len(c.open)-1]
		}
	case xml.CharData:
		if c.text += len(t); c.text > MaxText && len(c.open) > 0 {
			return nil, &TooManyError{Element: c.open[len(c.open)-1], Bound: MaxText, Text: true}
		}
	}
	return t, err
}
