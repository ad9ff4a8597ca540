package spdx

import (
	"errors"
	"fmt"
	"io"
)

// jsonLexer is a streaming JSON reader made for ParseDocument's hot loop. encoding/json reads
// a product SBOM at about 65,000-80,000 packages/s (BenchmarkDecodeRaw), scanning every package
// twice (once to find its end, once to unmarshal it) and reflecting over each field; reading
// the few fields the explorer keeps straight from the byte stream reaches about 200,000/s
// (BenchmarkParseDocument). It validates the full
// JSON grammar (RFC 8259) of everything it reads or skips, so a malformed document is still an
// error; invalid UTF-8 and lone surrogates become U+FFFD, as encoding/json does.
//
// Errors are sticky: after the first one every method returns zero values and err says what
// happened, so callers check once per element instead of after every call.
type jsonLexer struct {
	r       io.Reader
	buf     []byte // buf[pos:] is unread input
	pos     int
	keep    int   // when >= 0, buf[keep:] survives refills (raw)
	off     int64 // input offset of buf[0]
	readErr error // the reader's error, reported once buf is used up
	err     error

	depth, maxDepth int
	key             []byte // the key of the current object member
	scratch         []byte // decoded strings with escapes
}

// syntaxError is malformed JSON at an input offset.
type syntaxError struct {
	off int64
	msg string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("invalid JSON at byte %d: %s", e.off, e.msg) }

// truncatedError is the input ending inside the document.
type truncatedError struct{ off int64 }

func (e *truncatedError) Error() string {
	return fmt.Sprintf("truncated JSON: the input ends at byte %d inside the document", e.off)
}

// typeError is a value of the wrong JSON type for a field the parser reads.
type typeError struct{ field, got, want string }

func (e *typeError) Error() string { return fmt.Sprintf("%s is %s, want %s", e.field, e.got, e.want) }

func newJSONLexer(r io.Reader, maxDepth int) *jsonLexer {
	return &jsonLexer{r: r, buf: make([]byte, 0, 4<<10), keep: -1, maxDepth: maxDepth}
}

// readBuffer is the buffer size the lexer grows to for reading; it starts small, so parsing a
// small document allocates little, and grows past it only for a single longer token.
const readBuffer = 64 << 10

// fill reads more input, moving the unread part (and a kept raw value) to the front of buf
// and growing it up to readBuffer, or further when a single token fills it. It returns false
// when no byte was added.
func (l *jsonLexer) fill() bool {
	if l.readErr != nil {
		return false
	}
	start := l.pos
	if l.keep >= 0 && l.keep < start {
		start = l.keep
	}
	if start > 0 {
		n := copy(l.buf, l.buf[start:])
		l.buf = l.buf[:n]
		l.pos -= start
		if l.keep >= 0 {
			l.keep -= start
		}
		l.off += int64(start)
	}
	if len(l.buf) == cap(l.buf) || cap(l.buf) < readBuffer {
		grown := make([]byte, len(l.buf), 2*cap(l.buf))
		copy(grown, l.buf)
		l.buf = grown
	}
	for range 100 {
		n, err := l.r.Read(l.buf[len(l.buf):cap(l.buf)])
		l.buf = l.buf[:len(l.buf)+n]
		if err != nil {
			l.readErr = err
		}
		if n > 0 {
			return true
		}
		if err != nil {
			return false
		}
	}
	l.readErr = io.ErrNoProgress
	return false
}

// avail reports whether n bytes from pos+rel are buffered, reading more if needed.
func (l *jsonLexer) avail(rel, n int) bool {
	for len(l.buf)-l.pos < rel+n {
		if !l.fill() {
			return false
		}
	}
	return true
}

// failRead records why the input ran out.
func (l *jsonLexer) failRead() {
	if l.err != nil {
		return
	}
	if l.readErr == nil || errors.Is(l.readErr, io.EOF) {
		l.err = &truncatedError{off: l.off + int64(len(l.buf))}
		return
	}
	l.err = l.readErr
}

// syntax records a syntax error at pos+rel.
func (l *jsonLexer) syntax(rel int, format string, args ...any) {
	if l.err == nil {
		l.err = &syntaxError{off: l.off + int64(l.pos+rel), msg: fmt.Sprintf(format, args...)}
	}
}

// peek skips white space and returns the next byte without consuming it; 0 after an error.
func (l *jsonLexer) peek() byte {
	if l.err != nil {
		return 0
	}
	for {
		for l.pos < len(l.buf) {
			if c := l.buf[l.pos]; c != ' ' && c != '\n' && c != '\r' && c != '\t' {
				return c
			}
			l.pos++
		}
		if !l.fill() {
			l.failRead()
			return 0
		}
	}
}

// atEOF reports whether only white space is left.
func (l *jsonLexer) atEOF() bool {
	for {
		for l.pos < len(l.buf) {
			if c := l.buf[l.pos]; c != ' ' && c != '\n' && c != '\r' && c != '\t' {
				return false
			}
			l.pos++
		}
		if !l.fill() {
			if l.readErr != nil && !errors.Is(l.readErr, io.EOF) {
				l.failRead()
			}
			return true
		}
	}
}

// open consumes the '{' or '[' at pos.
func (l *jsonLexer) open() bool {
	l.pos++
	l.depth++
	if l.depth > l.maxDepth {
		l.syntax(-1, "nested deeper than %d levels", l.maxDepth)
		return false
	}
	return true
}

// nextMember moves to the next member of an object and reads its key into l.key. The first
// call (*n == 0) consumes the '{', which the caller has peeked. It returns false at the '}'
// and on an error; *n counts the members read.
func (l *jsonLexer) nextMember(n *int) bool {
	c := l.peek()
	if *n == 0 {
		if c != '{' {
			l.syntax(0, "expected '{', found %s", describeByte(c))
			return false
		}
		if !l.open() {
			return false
		}
		c = l.peek()
		if c == '}' {
			l.pos++
			l.depth--
			return false
		}
	} else {
		switch c {
		case '}':
			l.pos++
			l.depth--
			return false
		case ',':
			l.pos++
			c = l.peek()
		default:
			l.syntax(0, "expected ',' or '}' after an object member, found %s", describeByte(c))
			return false
		}
	}
	if c != '"' {
		l.syntax(0, "expected a string key, found %s", describeByte(c))
		return false
	}
	k := l.str()
	if l.err != nil {
		return false
	}
	l.key = append(l.key[:0], k...)
	if c := l.peek(); c != ':' {
		l.syntax(0, "expected ':' after an object key, found %s", describeByte(c))
		return false
	}
	l.pos++
	*n++
	return true
}

// nextElem moves to the next element of an array, like nextMember; the element itself is
// left for the caller to read.
func (l *jsonLexer) nextElem(n *int) bool {
	c := l.peek()
	if *n == 0 {
		if c != '[' {
			l.syntax(0, "expected '[', found %s", describeByte(c))
			return false
		}
		if !l.open() {
			return false
		}
		if l.peek() == ']' {
			l.pos++
			l.depth--
			return false
		}
	} else {
		switch c {
		case ']':
			l.pos++
			l.depth--
			return false
		case ',':
			l.pos++
		default:
			l.syntax(0, "expected ',' or ']' after an array element, found %s", describeByte(c))
			return false
		}
	}
	if l.err != nil {
		return false
	}
	*n++
	return true
}
