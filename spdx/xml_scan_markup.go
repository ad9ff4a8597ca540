package spdx

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// The token scanners. Each reads one token from the start of d, which holds the unread input
// (at most maxToken+1 bytes of it), and returns its length, errShort when the token does not
// end within d, or a syntax error. They follow encoding/xml's rawToken and Token step by step,
// so both accept the same documents; the comments name the places where encoding/xml's
// behaviour is not the obvious one.

// scan reads one token. Comments, processing instructions and DOCTYPEs leave kind 0.
func (s *xmlScanner) scan(d []byte, atEOF bool) (int, error) {
	if d[0] != '<' {
		return s.scanText(d, atEOF)
	}
	if len(d) < 2 {
		return 0, errShort
	}
	switch d[1] {
	case '/':
		return s.scanEndTag(d)
	case '?':
		return s.scanProcInst(d)
	case '!':
		if len(d) < 3 {
			return 0, errShort
		}
		switch d[2] {
		case '-':
			return s.scanComment(d)
		case '[':
			return s.scanCDATA(d)
		}
		return s.scanDirective(d)
	}
	return s.scanStartTag(d)
}

// scanText reads character data up to the next '<' or the end of the input.
func (s *xmlScanner) scanText(d []byte, atEOF bool) (int, error) {
	text, end, err := s.chars(d, 0, charsText, atEOF)
	if err != nil {
		return 0, err
	}
	s.kind, s.text = xmlText, text
	return end, nil
}

// scanStartTag reads <name attr="value"…> or <name…/>.
func (s *xmlScanner) scanStartTag(d []byte) (int, error) {
	i, name, local, err := s.scanQName(d, 1, "expected element name after <")
	if err != nil {
		return 0, err
	}
	s.attrs = s.attrs[:0]
	empty := false
	for {
		if i = skipSpace(d, i); i == len(d) {
			return 0, errShort
		}
		if d[i] == '/' {
			if i+1 == len(d) {
				return 0, errShort
			}
			if d[i+1] != '>' {
				return 0, s.errorAt(i+1, "expected /> in element")
			}
			i, empty = i+2, true
			break
		}
		if d[i] == '>' {
			i++
			break
		}
		a := xmlAttr{}
		if i, a.name, a.local, err = s.scanQName(d, i, "expected attribute name in element"); err != nil {
			return 0, err
		}
		if i = skipSpace(d, i); i == len(d) {
			return 0, errShort
		}
		if d[i] != '=' {
			return 0, s.errorAt(i, "attribute name without = in element")
		}
		if i = skipSpace(d, i+1); i == len(d) {
			return 0, errShort
		}
		if q := d[i]; q != '"' && q != '\'' {
			return 0, s.errorAt(i, "unquoted or missing attribute value in element")
		}
		if i, a.value, err = s.scanAttrValue(d, i); err != nil {
			return 0, err
		}
		s.attrs = append(s.attrs, a)
	}
	if err := s.pushElement(name, s.pos+i); err != nil {
		return 0, err
	}
	s.kind, s.name, s.local, s.closing = xmlStart, name, local, empty
	return i, nil
}

// scanAttrValue reads the quoted value starting at d[i], returning the index after the
// closing quote. In a value, unlike in text, "]]>" is allowed and '<' is not.
func (s *xmlScanner) scanAttrValue(d []byte, i int) (int, []byte, error) {
	mode := charsAttrQuot
	if d[i] == '\'' {
		mode = charsAttrApos
	}
	value, end, err := s.chars(d, i+1, mode, false)
	return end + 1, value, err
}

// scanEndTag reads </name>, which must close the innermost open element.
func (s *xmlScanner) scanEndTag(d []byte) (int, error) {
	i, name, _, err := s.scanQName(d, 2, "expected element name after </")
	if err != nil {
		return 0, err
	}
	if i = skipSpace(d, i); i == len(d) {
		return 0, errShort
	}
	if d[i] != '>' {
		return 0, s.errorAt(i, "invalid characters between </%s and >", name)
	}
	switch {
	case len(s.ends) == 0:
		return 0, s.errorAt(i, "unexpected end element </%s>", name)
	case !bytes.Equal(s.topElement(), name):
		return 0, s.errorAt(i, "element <%s> closed by </%s>", s.topElement(), name)
	}
	s.popElement()
	s.kind = xmlEnd
	return i + 1, nil
}

// scanProcInst reads <?target …?>. The XML declaration (target xml) must declare version 1.0
// and UTF-8, if anything.
func (s *xmlScanner) scanProcInst(d []byte) (int, error) {
	i, _, err := s.scanName(d, 2)
	switch {
	case err != nil:
		return 0, err
	case i == 2:
		return 0, s.errorAt(2, "expected target name after <?")
	}
	target := d[2:i]
	i = skipSpace(d, i)
	end := bytes.Index(d[i:], []byte("?>"))
	if end < 0 {
		return 0, errShort
	}
	if err := s.checkUTF8(d, i, i+end); err != nil {
		return 0, err
	}
	if string(target) == "xml" {
		content := string(d[i : i+end])
		if ver := procInst("version", content); ver != "" && ver != "1.0" {
			return 0, s.errorAt(i, "unsupported version %q; only version 1.0 is supported", ver)
		}
		if enc := procInst("encoding", content); enc != "" && !strings.EqualFold(enc, "utf-8") {
			return 0, s.errorAt(i, "encoding %q declared; only UTF-8 is read", enc)
		}
	}
	return i + end + 2, nil
}

// scanComment reads <!--…-->. As in encoding/xml, the first "--" must be followed by '>'.
func (s *xmlScanner) scanComment(d []byte) (int, error) {
	if len(d) < 4 {
		return 0, errShort
	}
	if d[3] != '-' {
		return 0, s.errorAt(3, "invalid sequence <!- not part of <!--")
	}
	dash := bytes.Index(d[4:], []byte("--"))
	if dash < 0 {
		return 0, errShort
	}
	end := 4 + dash + 2
	if end == len(d) {
		return 0, errShort
	}
	if d[end] != '>' {
		return 0, s.errorAt(end, `invalid sequence "--" not allowed in comments`)
	}
	if err := s.checkUTF8(d, 4, end-2); err != nil {
		return 0, err
	}
	return end + 1, nil
}

// scanCDATA reads <![CDATA[…]]> as character data.
func (s *xmlScanner) scanCDATA(d []byte) (int, error) {
	const open = "<![CDATA["
	for i := 3; i < len(open); i++ {
		if i == len(d) {
			return 0, errShort
		}
		if d[i] != open[i] {
			return 0, s.errorAt(i, "invalid <![ sequence")
		}
	}
	end := bytes.Index(d[len(open):], []byte("]]>"))
	if end < 0 {
		return 0, errShort
	}
	end += len(open)
	text, _, err := s.chars(d[:end], len(open), charsCDATA, true)
	if err != nil {
		return 0, err
	}
	s.kind, s.text = xmlText, text
	return end + 3, nil
}

// scanDirective reads past <!DOCTYPE …> or any other <!…> that is neither a comment nor CDATA,
// as encoding/xml does: up to the '>' outside quotes that closes every '<' opened inside, with
// comments inside skipped. Nothing in it is interpreted.
func (s *xmlScanner) scanDirective(d []byte) (int, error) {
	var quote byte
	depth := 0
	// encoding/xml takes the byte after "<!" as it is, without looking at it.
	for i := 3; ; {
		if i == len(d) {
			return 0, errShort
		}
		b := d[i]
		i++
		if quote == 0 && b == '>' && depth == 0 {
			return i, s.checkUTF8(d, 2, i)
		}
	handle:
		switch {
		case b == quote:
			quote = 0
		case quote != 0:
		case b == '\'' || b == '"':
			quote = b
		case b == '>':
			depth--
		case b == '<':
			const comment = "!--"
			k := 0
			for ; k < len(comment); k++ {
				if i == len(d) {
					return 0, errShort
				}
				b = d[i]
				i++
				if b != comment[k] {
					break
				}
			}
			if k < len(comment) {
				// Not a comment: the '<' opens a nested markup declaration, and the byte
				// that did not match is handled as any other.
				depth++
				goto handle
			}
			end := bytes.Index(d[i:], []byte("-->"))
			if end < 0 {
				return 0, errShort
			}
			i += end + 3
		}
	}
}

// checkUTF8 refuses invalid UTF-8 in d[i:end], the content of a comment, processing
// instruction or DOCTYPE. encoding/xml does not look there, but nothing in an rpm-md document
// may be anything but UTF-8.
func (s *xmlScanner) checkUTF8(d []byte, i, end int) error {
	if utf8.Valid(d[i:end]) {
		return nil
	}
	for i < end {
		r, size := utf8.DecodeRune(d[i:end])
		if r == utf8.RuneError && size == 1 {
			return s.errorAt(i, "invalid UTF-8")
		}
		i += size
	}
	return nil
}

// scanQName reads a name with at most one colon at d[i:], as encoding/xml's nsname does, and
// returns where it ends, the name and its local part; a missing name is the error missing.
func (s *xmlScanner) scanQName(d []byte, i int, missing string) (int, []byte, []byte, error) {
	end, colon, err := s.scanName(d, i)
	switch {
	case err != nil:
		return 0, nil, nil, err
	case end == i || colon == -2:
		return 0, nil, nil, s.errorAt(i, "%s", missing)
	case colon > i && colon < end-1:
		return end, d[i:end], d[colon+1 : end], nil
	}
	return end, d[i:end], d[i:end], nil // no prefix, or an empty one or an empty local part
}

// scanName reads a name at d[i:] and returns where it ends (i when there is none) and where
// its colon is: -1 for none, -2 for more than one. As in encoding/xml, a name runs up to the
// first ASCII byte that cannot be part of one; unlike encoding/xml, which checks the
// characters of a non-ASCII name against XML 1.0's tables, the scanner refuses any non-ASCII
// name.
func (s *xmlScanner) scanName(d []byte, i int) (end, colon int, err error) {
	end, colon = i, -1
	var bits byte
	for ; end < len(d) && nameScan[d[end]]; end++ {
		if d[end] == ':' {
			if colon == -1 {
				colon = end
			} else {
				colon = -2
			}
		}
		bits |= d[end]
	}
	switch {
	case end == len(d):
		return 0, 0, errShort
	case end == i:
		return i, -1, nil
	case bits >= utf8.RuneSelf:
		return 0, 0, s.errorAt(i, "invalid XML name %q: only ASCII names are read", d[i:end])
	}
	if c := d[i]; c != '_' && c != ':' && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
		return 0, 0, s.errorAt(i, "invalid XML name: %s", d[i:end])
	}
	return end, colon, nil
}

// nameScan holds the bytes encoding/xml reads a name over: ASCII letters, digits, '_', ':',
// '.', '-', and every non-ASCII byte (whose characters it checks afterwards).
var nameScan = func() (t [256]bool) {
	for c := range 256 {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '_' || c == ':' || c == '.' || c == '-' || c >= utf8.RuneSelf
	}
	return t
}()

// localName is the part of a raw name after its prefix; a name with an empty prefix or local
// part (":a", "a:") is all local, as encoding/xml splits it.
func localName(name []byte) []byte {
	if i := bytes.IndexByte(name, ':'); i > 0 && i < len(name)-1 {
		return name[i+1:]
	}
	return name
}

// skipSpace returns the index of the first byte at or after i that is not XML white space.
func skipSpace(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\n' || d[i] == '\t' || d[i] == '\r') {
		i++
	}
	return i
}

// procInst returns the value of param="…" or param='…' in the XML declaration s, or "". It is
// encoding/xml's procInst, so both read a declaration alike.
func procInst(param, s string) string {
	param += "="
	lenp := len(param)
	i := 0
	var sep byte
	for i < len(s) {
		sub := s[i:]
		k := strings.Index(sub, param)
		if k < 0 || lenp+k >= len(sub) {
			return ""
		}
		i += lenp + k + 1
		if c := sub[lenp+k]; c == '\'' || c == '"' {
			sep = c
			break
		}
	}
	if sep == 0 {
		return ""
	}
	j := strings.IndexByte(s[i:], sep)
	if j < 0 {
		return ""
	}
	return s[i : i+j]
}
