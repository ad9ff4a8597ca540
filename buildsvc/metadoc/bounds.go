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
)

// TooManyError says which element went over which bound.
type TooManyError struct {
	Element string // the element's local name; "" for the bound on all elements
	Bound   int
}

// Error names the element and the bound, the words a client sees.
func (e *TooManyError) Error() string {
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

// countingReader passes the tokens of d on, counting start elements.
type countingReader struct {
	d     *xml.Decoder
	seen  map[string]int
	total int
}

// Token returns d's next token, or a *TooManyError instead of the element over a bound.
func (c *countingReader) Token() (xml.Token, error) {
	t, err := c.d.Token()
	if s, ok := t.(xml.StartElement); ok {
		if c.total++; c.total > MaxElements {
			return nil, &TooManyError{Bound: MaxElements}
		}
		if bound, ok := MaxEntries[s.Name.Local]; ok {
			if c.seen[s.Name.Local]++; c.seen[s.Name.Local] > bound {
				return nil, &TooManyError{Element: s.Name.Local, Bound: bound}
			}
		}
	}
	return t, err
}
