package spdx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
)

// xmlScanner is the streaming XML tokenizer under parsePrimary and parseFilelists. It replaces
// encoding/xml there because encoding/xml reads a byte at a time through an interface, copies
// every token and allocates its names and attributes, which made parsing two thirds of an
// explorer import; this scanner works on a buffer of the input and hands out slices of it.
//
// It accepts what encoding/xml's strict Decoder.Token accepts and returns the same start and
// end tags, attributes and character data (FuzzXMLScanner checks both against each other), with
// three deliberate exceptions where it is stricter: invalid UTF-8 is refused everywhere, where
// encoding/xml only looks in character data and attribute values and lets comments, processing
// instructions and DOCTYPEs through; names of elements, attributes and processing instructions
// must be ASCII (rpm-md has no other); and a character reference to a surrogate (&#xD800;) is
// an error where encoding/xml turns it into U+FFFD. Like encoding/xml it refuses mismatched and
// unclosed tags, attributes without a quoted value, undefined entities (a DOCTYPE is read past,
// nothing in it is expanded, so it cannot smuggle content in), characters XML does not allow in
// character data and attribute values, and an XML declaration of another version than 1.0 or
// another encoding than UTF-8. It decodes the five
// predefined entities and numeric character references, normalizes line ends to \n, returns
// CDATA sections as character data and skips comments, processing instructions and DOCTYPEs.
// Namespace prefixes are kept in the raw name and split off as the local name, which is what
// the parsers match on; xmlns attributes are attributes like any other. Two things XML forbids
// pass here as they pass encoding/xml: attributes not separated by white space, and an
// attribute given twice (attr returns the first).
//
// It also has the bounds encoding/xml lacks: one token (a tag with its attributes, a text run,
// a CDATA section, a comment, a DOCTYPE) longer than maxToken bytes, or elements nested deeper
// than maxDepth, are errors, so memory stays bounded whatever the input. Errors carry the input
// line. Skipping costs no allocation: only a text or attribute value with an entity or a
// carriage return is copied, into a scratch buffer that is reused.
type xmlScanner struct {
	r       io.Reader
	buf     []byte // buf[pos:] is unread input
	pos     int
	readErr error        // the reader's error (io.EOF at the end), reported once buf is used up
	err     error        // the error next returned, which it returns from then on
	filled  bool         // buf has been filled once; stop is checked from the next fill on
	stop    *atomic.Bool // when set, the next fill fails with errStopped; nil for never

	line   int // the line buf[lineAt] is on
	lineAt int

	maxToken, maxDepth int

	open    []byte // the raw names of the open elements, one after the other
	ends    []int  // where each open element's name ends in open
	closing bool   // the last token was an empty-element tag: its xmlEnd comes next

	// The current token. The slices stay valid until the next call of next.
	kind    xmlKind
	name    []byte // xmlStart, xmlEnd: the raw name, prefix included
	local   []byte // xmlStart, xmlEnd: the name without its prefix
	attrs   []xmlAttr
	text    []byte // xmlText: the decoded character data
	depth   int    // open elements, the current xmlStart included
	scratch []byte // decoded text and attribute values
}

// xmlKind is the kind of token xmlScanner.next read.
type xmlKind uint8

const (
	xmlStart xmlKind = iota + 1 // a start tag; an empty-element tag gives xmlStart, then xmlEnd
	xmlEnd                      // an end tag
	xmlText                     // a text run or a CDATA section
)

// xmlAttr is one attribute of a start tag, its value decoded.
type xmlAttr struct {
	name, local, value []byte
}

// xmlScanBuffer is the scanner's buffer size: large enough that refills are rare, small enough
// to stay in cache. A token longer than the buffer grows it, up to maxToken.
const xmlScanBuffer = 64 << 10

// errStopped is what a parse returns when it was told to stop because the other half of the
// work failed; ParseRepodata reports the other half's error instead.
var errStopped = errors.New("stopped")

// errShort is what the token scanners return when the token does not end in the buffer.
var errShort = errors.New("short buffer")

// xmlSyntaxError is malformed XML. Its text is encoding/xml's SyntaxError's.
type xmlSyntaxError struct {
	line int
	msg  string
}

func (e *xmlSyntaxError) Error() string {
	return fmt.Sprintf("XML syntax error on line %d: %s", e.line, e.msg)
}

func newXMLScanner(r io.Reader, lim limits, stop *atomic.Bool) *xmlScanner {
	return newXMLScannerSize(r, lim, stop, xmlScanBuffer)
}

// newXMLScannerSize is newXMLScanner with another initial buffer size, for tests that make
// every token cross a refill.
func newXMLScannerSize(r io.Reader, lim limits, stop *atomic.Bool, size int) *xmlScanner {
	return &xmlScanner{r: r, buf: make([]byte, 0, size), stop: stop, line: 1,
		maxToken: int(min(lim.xmlToken, 1<<40)), maxDepth: lim.xmlDepth}
}

// next reads the next start tag, end tag or character data, skipping comments, processing
// instructions and DOCTYPEs. At the end of the input it returns io.EOF, or an error when
// elements are still open. Errors are final: once next failed, it returns the same error.
func (s *xmlScanner) next() error {
	if s.err != nil {
		return s.err
	}
	if err := s.advance(); err != nil {
		s.err = err
		return err
	}
	return nil
}

// advance is next without the memory of errors.
func (s *xmlScanner) advance() error {
	if s.closing {
		s.closing = false
		s.popElement()
		s.kind = xmlEnd
		return nil
	}
	for {
		d := s.buf[s.pos:]
		if len(d) == 0 {
			if s.readErr != nil {
				return s.end()
			}
			if err := s.fill(); err != nil {
				return err
			}
			continue
		}
		view := d[:min(len(d), s.maxToken+1)]
		atEOF := s.readErr == io.EOF && len(view) == len(d)
		s.kind = 0
		s.scratch = s.scratch[:0]
		n, err := s.scan(view, atEOF)
		switch {
		case err == errShort && len(d) == s.maxToken+1 && s.readErr == nil:
			// Whether the input ends right after these maxToken+1 bytes decides the verdict: a
			// whole buffer sees that end at once (and may find a syntax error at it, an entity
			// the end cuts off), so read on to know it, as it does.
			if err := s.fill(); err != nil {
				return err
			}
			continue
		case err == errShort && len(d) > s.maxToken, err == nil && n > s.maxToken:
			// The second: a token of maxToken+1 bytes that the end of the input closed. Read
			// in smaller pieces, the same token is found too long before the end arrives, so
			// it must be refused here too: how the input arrives never changes the verdict.
			return fmt.Errorf("line %d: a token longer than %d bytes", s.lineOf(s.pos), s.maxToken)
		case err == errShort && s.readErr == nil:
			if err := s.fill(); err != nil {
				return err
			}
			continue
		case err == errShort && s.readErr == io.EOF:
			return s.syntaxError(len(s.buf), "unexpected EOF")
		case err == errShort:
			return s.readErr
		case err != nil:
			return err
		}
		s.pos += n
		if s.kind != 0 {
			return nil
		}
	}
}

// end is next at the end of the input.
func (s *xmlScanner) end() error {
	switch {
	case s.readErr != io.EOF:
		return s.readErr
	case s.depth > 0:
		return s.syntaxError(len(s.buf), "unexpected EOF")
	}
	return io.EOF
}

// fill reads more input, moving the unread part to the front of buf and growing buf when the
// unread part fills it. It reads until buf is full or the reader fails, so a long token is
// rescanned a few times only.
func (s *xmlScanner) fill() error {
	if s.filled && s.stop != nil && s.stop.Load() {
		return errStopped
	}
	s.filled = true
	if s.pos > 0 {
		s.lineOf(s.pos)
		n := copy(s.buf, s.buf[s.pos:])
		s.buf = s.buf[:n]
		s.lineAt -= s.pos
		s.pos = 0
	}
	if len(s.buf) == cap(s.buf) {
		grown := make([]byte, len(s.buf), 2*cap(s.buf)+16)
		copy(grown, s.buf)
		s.buf = grown
	}
	for empty := 0; len(s.buf) < cap(s.buf); {
		n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		if err != nil {
			s.readErr = err
			return nil
		}
		if n == 0 {
			if empty++; empty == 100 {
				s.readErr = io.ErrNoProgress
				return nil
			}
		}
	}
	return nil
}

// lineOf returns the line of buf[at]. Lines are counted lazily, up to the furthest position
// asked for, which only moves forward.
func (s *xmlScanner) lineOf(at int) int {
	if at > s.lineAt {
		s.line += bytes.Count(s.buf[s.lineAt:at], newline)
		s.lineAt = at
	}
	return s.line
}

var newline = []byte{'\n'}

// currentLine is the line the last token ended on, for the parsers' errors.
func (s *xmlScanner) currentLine() int { return s.lineOf(s.pos) }

// syntaxError is malformed XML found at buf[at].
func (s *xmlScanner) syntaxError(at int, msg string) error {
	return &xmlSyntaxError{line: s.lineOf(at), msg: msg}
}

// errorAt is syntaxError at d[i] of the token being scanned.
func (s *xmlScanner) errorAt(i int, format string, args ...any) error {
	return s.syntaxError(s.pos+i, fmt.Sprintf(format, args...))
}

// attr returns the value of the current start tag's first attribute with the local name, or
// nil.
func (s *xmlScanner) attr(local string) []byte {
	for i := range s.attrs {
		if string(s.attrs[i].local) == local {
			return s.attrs[i].value
		}
	}
	return nil
}

// pushElement records an open element whose start tag ends at buf[end].
func (s *xmlScanner) pushElement(name []byte, end int) error {
	if len(s.ends) >= s.maxDepth {
		return fmt.Errorf("line %d: elements nested deeper than %d", s.lineOf(end), s.maxDepth)
	}
	s.open = append(s.open, name...)
	s.ends = append(s.ends, len(s.open))
	s.depth = len(s.ends)
	return nil
}

// popElement closes the innermost open element and makes its name the current token's.
func (s *xmlScanner) popElement() {
	n := len(s.ends) - 1
	start := 0
	if n > 0 {
		start = s.ends[n-1]
	}
	s.name = s.open[start:s.ends[n]]
	s.local = localName(s.name)
	s.open = s.open[:start]
	s.ends = s.ends[:n]
	s.depth = n
}

// topElement is the raw name of the innermost open element.
func (s *xmlScanner) topElement() []byte {
	n := len(s.ends) - 1
	if n > 0 {
		return s.open[s.ends[n-1]:]
	}
	return s.open
}
