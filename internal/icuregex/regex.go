// Package regex serves go-mysql-server's REGEXP functions (REGEXP, RLIKE, REGEXP_LIKE,
// REGEXP_INSTR, REGEXP_SUBSTR, REGEXP_REPLACE) with Go's regexp package, in place of
// github.com/dolthub/go-icu-regex, whose API it implements and whose module path it takes
// (pocketforge's go.mod replaces that module with this directory).
//
// Why: go-icu-regex runs ICU compiled to WebAssembly under wazero and compiles that module in
// its package init, which cost every pocketforge command, `version` and `healthcheck`
// included, 0.3 to 2.3 s before main ran, and ~2.5 MB of binary. Go's regexp compiles nothing
// at init and matches in linear time.
//
// What differs from MySQL's ICU regular expressions (README lists the same for users of
// connectable mysql databases):
//   - The syntax is RE2's: no backreferences (\1), lookahead or lookbehind ((?=, (?!, (?<=,
//     (?<!), possessive quantifiers or atomic groups; such a pattern is refused as invalid.
//     An escaped letter without a meaning (\y) is refused, where ICU reads it as the letter.
//     Repetition counts stop at 1000. \uhhhh is accepted and read as \x{hhhh}.
//   - Positions (pos, and what REGEXP_INSTR returns) count characters (code points); ICU
//     counts UTF-16 units, which differs only after a character outside the Basic Multilingual
//     Plane (an emoji, say).
//   - With pos > 1 the search sees the text from pos on as the whole text: ^ and \b match at
//     pos as at a start of text (ICU looks at the characters before pos).
//   - Line ends are \n only (ICU's default also knows \r, U+0085, U+2028, U+2029): '.', '^'
//     and '$' with 'm' behave as with MySQL's 'u' flag, whatever the flags.
//   - An empty match right after a match is skipped when counting or replacing occurrences
//     (REGEXP_REPLACE('baaac', 'a*', '-') is '-b-c-'; ICU gives '-b--c-').
//   - In a REGEXP_REPLACE replacement, $n and ${name} insert a group and \ quotes the next
//     character, as in ICU; a $ followed by neither a group number nor {name}, or a group
//     number the pattern does not have, is an error.
package regex

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// Regex is one regular expression and the text it is matched against, as go-mysql-server
// uses it: SetRegexString, then SetMatchString per row, then one of the queries. Positions
// (start) count characters from 1, except Matches', which counts from 0, as go-icu-regex's
// do. Not safe for concurrent use; Close releases nothing but is kept for the API.
type Regex interface {
	SetRegexString(ctx context.Context, regexStr string, flags RegexFlags) error
	SetMatchString(ctx context.Context, matchStr string) error
	// IndexOf is the position of the occurrence-th match at or after start: of its first
	// character, or with endIndex of the character after it; 0 when there is none.
	IndexOf(ctx context.Context, start int, occurrence int, endIndex bool) (int, error)
	// Matches says whether the pattern matches at or after start (0-based) occurrence times.
	Matches(ctx context.Context, start int, occurrence int) (bool, error)
	// Replace replaces the occurrence-th match at or after start (every one for 0).
	Replace(ctx context.Context, replacementStr string, start int, occurrence int) (string, error)
	// Substring is the occurrence-th match at or after start, and whether there was one.
	Substring(ctx context.Context, start int, occurrence int) (string, bool, error)
	StringBufferSize() uint32
	Close() error
}

// RegexFlags are ICU's flag values, combined with |.
type RegexFlags uint32

// The flags go-icu-regex defines, with ICU's values. Unix_Lines, Unicode_Word and
// Error_On_Unknown_Escapes change nothing here (Go's regexp always behaves as with the first
// and the last); Comments is refused as Go's regexp has no such mode.
const (
	RegexFlags_None                     RegexFlags = 0
	RegexFlags_Unix_Lines               RegexFlags = 1
	RegexFlags_Case_Insensitive         RegexFlags = 2
	RegexFlags_Comments                 RegexFlags = 4
	RegexFlags_Multiline                RegexFlags = 8
	RegexFlags_Literal                  RegexFlags = 16
	RegexFlags_Dot_All                  RegexFlags = 32
	RegexFlags_Unicode_Word             RegexFlags = 256
	RegexFlags_Error_On_Unknown_Escapes RegexFlags = 512
)

var (
	// ErrRegexNotYetSet: a query before SetRegexString.
	ErrRegexNotYetSet = errors.New("SetRegexString must be called before any other function")
	// ErrMatchNotYetSet: a query before SetMatchString.
	ErrMatchNotYetSet = errors.New("SetMatchString must be called as there is nothing to match against")
	// ErrInvalidRegex wraps why a pattern was refused.
	ErrInvalidRegex = errors.New("the given regular expression is invalid")
)

// ShouldPanic is go-icu-regex's switch for a Regex never closed; nothing leaks here, so it is
// never read.
var ShouldPanic = true

var leakHandler atomic.Value

// SetRegexLeakHandler keeps handler for the API's sake: a Regex here holds no resources, so
// an unclosed one is no leak and the handler is never called.
func SetRegexLeakHandler(handler func()) { leakHandler.Store(handler) }

// CreateRegex returns an empty Regex. The buffer size go-icu-regex preallocates in WebAssembly
// memory is only reported back by StringBufferSize.
func CreateRegex(stringBufferInBytes uint32) Regex {
	return &goRegex{bufferSize: stringBufferInBytes}
}

type goRegex struct {
	re         *regexp.Regexp
	text       string
	textSet    bool
	bufferSize uint32
}

func (g *goRegex) SetRegexString(_ context.Context, pattern string, flags RegexFlags) error {
	g.re, g.textSet = nil, false
	re, err := compile(pattern, flags)
	if err != nil {
		return err
	}
	g.re = re
	return nil
}

// compile turns an ICU pattern and flags into a Go regexp (see the package comment for what
// differs).
func compile(pattern string, flags RegexFlags) (*regexp.Regexp, error) {
	if flags&RegexFlags_Comments != 0 {
		return nil, fmt.Errorf("%w: the comments flag is not supported", ErrInvalidRegex)
	}
	if flags&RegexFlags_Literal != 0 {
		pattern = regexp.QuoteMeta(pattern)
	} else {
		pattern = unicodeEscapes(pattern)
	}
	var mode string
	if flags&RegexFlags_Case_Insensitive != 0 {
		mode += "i"
	}
	if flags&RegexFlags_Multiline != 0 {
		mode += "m"
	}
	if flags&RegexFlags_Dot_All != 0 {
		mode += "s"
	}
	if mode != "" {
		pattern = "(?" + mode + ")" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidRegex, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return re, nil
}

// unicodeEscapes rewrites ICU's \uhhhh and \Uhhhhhhhh, which Go's syntax lacks, as \x{…}.
func unicodeEscapes(p string) string {
	if !strings.Contains(p, `\u`) && !strings.Contains(p, `\U`) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] != '\\' || i+1 == len(p) {
			b.WriteByte(p[i])
			continue
		}
		n := map[byte]int{'u': 4, 'U': 8}[p[i+1]]
		if n > 0 && i+2+n <= len(p) && isHex(p[i+2:i+2+n]) {
			b.WriteString(`\x{` + p[i+2:i+2+n] + `}`)
			i += 1 + n
			continue
		}
		b.WriteString(p[i : i+2]) // an escape pair stays whole, so \\u is not read as \u
		i++
	}
	return b.String()
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func (g *goRegex) SetMatchString(_ context.Context, text string) error {
	if g.re == nil {
		return ErrRegexNotYetSet
	}
	g.text, g.textSet = text, true
	return nil
}

func (g *goRegex) ready() error {
	if g.re == nil {
		return ErrRegexNotYetSet
	}
	if !g.textSet {
		return ErrMatchNotYetSet
	}
	return nil
}

// byteOffset is where the character at 0-based index chars starts; ok is false when the text
// has fewer characters (the index just past the last one is valid: it is the text's end).
func byteOffset(s string, chars int) (int, bool) {
	if chars < 0 {
		return 0, false
	}
	off := 0
	for ; chars > 0; chars-- {
		if off == len(s) {
			return 0, false
		}
		_, size := utf8.DecodeRuneInString(s[off:])
		off += size
	}
	return off, true
}

// find returns the byte offset where the search starts and the first n matches (all for
// n <= 0) from the character at 0-based index start, as byte offsets into the whole text;
// none when start is outside the text.
func (g *goRegex) find(start, n int) (int, [][]int) {
	off, ok := byteOffset(g.text, start)
	if !ok {
		return 0, nil
	}
	if n <= 0 {
		n = -1
	}
	found := g.re.FindAllStringSubmatchIndex(g.text[off:], n)
	for _, m := range found {
		for i := range m {
			if m[i] >= 0 {
				m[i] += off
			}
		}
	}
	return off, found
}

// nth is the occurrence-th match (occurrence counts from 1; 0 and below mean the first).
func (g *goRegex) nth(start, occurrence int) []int {
	occurrence = max(occurrence, 1)
	_, found := g.find(start, occurrence)
	if len(found) < occurrence {
		return nil
	}
	return found[occurrence-1]
}

func (g *goRegex) IndexOf(_ context.Context, start, occurrence int, endIndex bool) (int, error) {
	if err := g.ready(); err != nil {
		return 0, err
	}
	m := g.nth(start-1, occurrence)
	if m == nil {
		return 0, nil
	}
	at := m[0]
	if endIndex {
		at = m[1]
	}
	return utf8.RuneCountInString(g.text[:at]) + 1, nil
}

func (g *goRegex) Matches(_ context.Context, start, occurrence int) (bool, error) {
	if err := g.ready(); err != nil {
		return false, err
	}
	return g.nth(start, occurrence) != nil, nil
}

func (g *goRegex) Substring(_ context.Context, start, occurrence int) (string, bool, error) {
	if err := g.ready(); err != nil {
		return "", false, err
	}
	m := g.nth(start-1, occurrence)
	if m == nil {
		return "", false, nil
	}
	return g.text[m[0]:m[1]], true, nil
}

func (g *goRegex) Replace(_ context.Context, replacement string, start, occurrence int) (string, error) {
	if err := g.ready(); err != nil {
		return "", err
	}
	n := 0 // every match
	if occurrence > 0 {
		n = occurrence
	}
	_, found := g.find(start-1, n)
	if occurrence > 0 {
		if len(found) < occurrence {
			return g.text, nil
		}
		found = found[occurrence-1:]
	}
	if len(found) == 0 {
		return g.text, nil
	}
	var b strings.Builder
	b.Grow(len(g.text))
	last := 0
	for _, m := range found {
		b.WriteString(g.text[last:m[0]])
		if err := g.expand(&b, replacement, m); err != nil {
			return "", err
		}
		last = m[1]
	}
	b.WriteString(g.text[last:])
	return b.String(), nil
}

// expand writes replacement for match m with ICU's syntax: $n (the longest run of digits that
// is a group of the pattern) and ${name} insert a group, \c is c.
func (g *goRegex) expand(b *strings.Builder, repl string, m []int) error {
	groups := g.re.NumSubexp()
	group := func(i int) {
		if m[2*i] >= 0 {
			b.WriteString(g.text[m[2*i]:m[2*i+1]])
		}
	}
	for i := 0; i < len(repl); i++ {
		switch c := repl[i]; {
		case c == '\\' && i+1 < len(repl):
			_, size := utf8.DecodeRuneInString(repl[i+1:])
			b.WriteString(repl[i+1 : i+1+size])
			i += size
		case c == '$' && i+1 < len(repl) && repl[i+1] == '{':
			end := strings.IndexByte(repl[i:], '}')
			if end < 0 {
				return fmt.Errorf("%w: unterminated ${ in the replacement", ErrInvalidRegex)
			}
			name := repl[i+2 : i+end]
			idx := g.re.SubexpIndex(name)
			if idx < 0 {
				return fmt.Errorf("%w: no group named %q for the replacement", ErrInvalidRegex, name)
			}
			group(idx)
			i += end
		case c == '$':
			if i+1 == len(repl) || repl[i+1] < '0' || repl[i+1] > '9' {
				return fmt.Errorf("%w: a $ in the replacement must name a group ($1, ${name}; \\$ for a dollar sign)", ErrInvalidRegex)
			}
			num := int(repl[i+1] - '0')
			if num > groups {
				return fmt.Errorf("%w: the replacement names group %d of %d", ErrInvalidRegex, num, groups)
			}
			i++
			for i+1 < len(repl) && '0' <= repl[i+1] && repl[i+1] <= '9' && num*10+int(repl[i+1]-'0') <= groups {
				num = num*10 + int(repl[i+1]-'0')
				i++
			}
			group(num)
		default:
			b.WriteByte(c)
		}
	}
	return nil
}

func (g *goRegex) StringBufferSize() uint32 { return g.bufferSize }

func (g *goRegex) Close() error {
	g.re, g.text, g.textSet = nil, "", false
	return nil
}
