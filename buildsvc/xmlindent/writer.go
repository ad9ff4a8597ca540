// Package xmlindent writes XML documents byte for byte as encoding/xml's
// MarshalIndent(v, "", "  ") writes them, without reflection: a document that knows its own
// shape (a request, a package or project meta) walks its fields and calls Open, Close, Empty
// and Text in the order encoding/xml would visit them. Listings of thousands of documents
// (a package search over a project of 20,000 packages) spent more time in encoding/xml's
// reflection than in reading the records. Each document's test holds its writer to
// encoding/xml's output.
package xmlindent

import (
	"encoding/xml"
	"strconv"
)

// Writer appends a document to a byte slice. The zero value writes at depth 0; New starts
// deeper (an element of a <collection> is at depth 1: on a new line, indented).
type Writer struct {
	b     []byte
	depth int
	// open is a stack of bits, one per open element: whether it has had a child element yet
	// (its end tag then goes on a line of its own). Documents nest far less than 64 deep.
	open    uint64
	nOpen   int
	started bool
}

// New is a writer appending to b, its first element at depth.
func New(b []byte, depth int) Writer { return Writer{b: b, depth: depth} }

// Bytes is what has been written, b included.
func (w *Writer) Bytes() []byte { return w.b }

// Attr is one attribute; an omitted one (omitempty and empty) is not written.
type Attr struct {
	name, value string
	omit        bool
}

// Must is an attribute always written, empty or not.
func Must(name, value string) Attr { return Attr{name: name, value: value} }

// Opt is an omitempty attribute: left out when empty.
func Opt(name, value string) Attr { return Attr{name: name, value: value, omit: value == ""} }

// newline starts a line at the current depth (the very first tag at depth 0 starts none).
func (w *Writer) newline() {
	if w.started || w.depth > 0 {
		w.b = append(w.b, '\n')
		for range w.depth {
			w.b = append(w.b, "  "...)
		}
	}
	w.started = true
}

// startTag writes <name attrs…>.
func (w *Writer) startTag(name string, attrs []Attr) {
	if w.nOpen > 0 {
		w.open |= 1 << (w.nOpen - 1)
	}
	w.newline()
	w.b = append(w.b, '<')
	w.b = append(w.b, name...)
	for _, a := range attrs {
		if a.omit {
			continue
		}
		w.b = append(w.b, ' ')
		w.b = append(w.b, a.name...)
		w.b = append(w.b, `="`...)
		w.b = Escape(w.b, a.value)
		w.b = append(w.b, '"')
	}
	w.b = append(w.b, '>')
}

// Open writes a start tag; Close ends the element.
func (w *Writer) Open(name string, attrs ...Attr) {
	if w.nOpen == 64 {
		panic("xmlindent: elements nested deeper than 64")
	}
	w.startTag(name, attrs)
	w.depth++
	w.open &^= 1 << w.nOpen
	w.nOpen++
}

// Close writes the end tag of the element Open began last.
func (w *Writer) Close(name string) {
	w.depth--
	w.nOpen--
	if w.open&(1<<w.nOpen) != 0 {
		w.newline()
	}
	w.endTag(name)
}

func (w *Writer) endTag(name string) {
	w.b = append(w.b, "</"...)
	w.b = append(w.b, name...)
	w.b = append(w.b, '>')
}

// Empty writes an element with attributes and no content (encoding/xml writes <a></a>, never
// <a/>).
func (w *Writer) Empty(name string, attrs ...Attr) {
	w.startTag(name, attrs)
	w.endTag(name)
}

// Text writes <name>value</name>; omitEmpty leaves an empty value out.
func (w *Writer) Text(name, value string, omitEmpty bool) {
	if value == "" && omitEmpty {
		return
	}
	w.startTag(name, nil)
	w.b = Escape(w.b, value)
	w.endTag(name)
}

// Escape appends s escaped as encoding/xml escapes text and attribute values: printable
// ASCII without &<>"' is copied; anything else goes through xml.EscapeText (control
// characters, invalid UTF-8 and characters outside XML's range become U+FFFD or references
// exactly as encoding/xml makes them).
func Escape(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f, c == '"', c == '\'', c == '&', c == '<', c == '>':
			a := appender{b: append(b, s[:i]...)}
			xml.EscapeText(&a, []byte(s[i:])) // appender's Write never fails
			return a.b
		}
	}
	return append(b, s...)
}

// appender is an io.Writer appending to a slice.
type appender struct{ b []byte }

func (a *appender) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	return len(p), nil
}

// Collection appends the build API's listing, <collection matches="N"> around n items, as
// encoding/xml writes a struct of a matches attribute and a slice of documents: item(b, i)
// appends the i-th document at depth 1. The answer ends with a newline, as the API sends it.
func Collection(b []byte, matches, n int, item func(b []byte, i int) []byte) []byte {
	b = append(b, `<collection matches="`...)
	b = strconv.AppendInt(b, int64(matches), 10)
	b = append(b, `">`...)
	for i := range n {
		b = item(b, i)
	}
	if n == 0 {
		return append(b, "</collection>\n"...)
	}
	return append(b, "\n</collection>\n"...)
}
