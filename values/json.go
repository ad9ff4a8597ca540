package values

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
)

// looksLikeJSON reports whether data starts (after white space and a byte order mark) with "{".
func looksLikeJSON(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	data = bytes.TrimLeft(data, " \t\r\n")
	return len(data) > 0 && data[0] == '{'
}

// jsonSyntaxError marks a JSON error that YAML might still read (Auto falls back to YAML).
type jsonSyntaxError struct{ *ParseError }

// Unwrap gives the *ParseError, so errors.As finds it.
func (e jsonSyntaxError) Unwrap() error { return e.ParseError }

func isJSONSyntax(err error) bool {
	var se jsonSyntaxError
	return errors.As(err, &se)
}

// parseJSON reads one JSON document token by token, so that duplicate keys — which
// encoding/json would silently resolve to the last — are reported with both positions, nesting is
// bounded by MaxDepth, and numbers stay json.Number as written.
func parseJSON(data []byte) (map[string]any, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if len(bytes.TrimLeft(data, " \t\r\n")) == 0 {
		return map[string]any{}, nil
	}
	p := jsonParser{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	start := p.next()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if end := p.next(); end < len(p.data) {
		_, err := p.dec.Token()
		if err == nil || errors.Is(err, io.EOF) {
			return nil, jsonSyntaxError{p.at(end, "invalid JSON: more data after the JSON document")}
		}
		return nil, p.syntax(err, "")
	}
	m, ok := v.(map[string]any)
	if !ok {
		line, col := position(data, start)
		return nil, &ParseError{Line: line, Column: col, Msg: "the top level must be a mapping of keys to values, not " + jsonKind(v)}
	}
	return m, nil
}

type jsonParser struct {
	data []byte
	dec  *json.Decoder
}

// next is the offset where the next token starts: past white space, ',' and ':'.
func (p *jsonParser) next() int {
	off := int(p.dec.InputOffset())
	for off < len(p.data) {
		switch p.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

// at is a *ParseError at byte offset off.
func (p *jsonParser) at(off int, format string, args ...any) *ParseError {
	line, col := position(p.data, min(off, len(p.data)))
	return &ParseError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// syntax words a decoder error at its offset.
func (p *jsonParser) syntax(err error, fallback string) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return jsonSyntaxError{p.at(p.offending(se), "invalid JSON: %s", se.Error())}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return jsonSyntaxError{p.at(len(p.data), "invalid JSON: the document ends in the middle")}
	case err != nil:
		return jsonSyntaxError{p.at(int(p.dec.InputOffset()), "invalid JSON: %v", err)}
	}
	return jsonSyntaxError{p.at(p.next(), "invalid JSON: %s", fallback)}
}

var invalidChar = regexp.MustCompile(`^invalid character '(.)'`)

// offending finds the byte a syntax error is about: encoding/json's Offset is the byte itself or
// the one after it, depending on where the decoder noticed.
func (p *jsonParser) offending(se *json.SyntaxError) int {
	off := int(se.Offset)
	if m := invalidChar.FindStringSubmatch(se.Error()); m != nil {
		for _, o := range []int{off, off - 1} {
			if o >= 0 && o < len(p.data) && string(p.data[o]) == m[1] {
				return o
			}
		}
	}
	return min(max(off, 0), len(p.data))
}

// value reads one value, depth levels below the top.
func (p *jsonParser) value(depth int) (any, error) {
	start := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.syntax(err, "")
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // string, json.Number, bool or nil
	}
	if depth > MaxDepth {
		return nil, p.at(start, "values nest deeper than %d levels", MaxDepth)
	}
	switch d {
	case '{':
		m := map[string]any{}
		first := map[string]int{}
		for p.dec.More() {
			keyAt := p.next()
			kt, err := p.dec.Token()
			if err != nil {
				return nil, p.syntax(err, "")
			}
			key, ok := kt.(string)
			if !ok {
				return nil, jsonSyntaxError{p.at(keyAt, "invalid JSON: a key must be a string")}
			}
			if prev, dup := first[key]; dup {
				line, col := position(p.data, prev)
				return nil, p.at(keyAt, "duplicate key %q (first at line %d, column %d)", key, line, col)
			}
			first[key] = keyAt
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			m[key] = v
		}
		if _, err := p.dec.Token(); err != nil {
			return nil, p.syntax(err, "")
		}
		return m, nil
	default: // '['
		list := []any{}
		for p.dec.More() {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		if _, err := p.dec.Token(); err != nil {
			return nil, p.syntax(err, "")
		}
		return list, nil
	}
}

// jsonKind names a top-level value that is not a mapping.
func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "a list"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}
