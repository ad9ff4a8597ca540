package specfile

import (
	"errors"
	"strings"
)

// Bounds on macro expansion. A spec is data a user uploads, so a macro that refers to itself or
// doubles at every level must end in an error, not a hang or an out-of-memory.
const (
	// MaxMacroDepth is how deeply macro bodies may nest while expanding (rpm allows 64).
	MaxMacroDepth = 32
	// MaxExpansionGrowth is how many bytes expansion may write beyond twice the spec's own size.
	MaxExpansionGrowth = 1 << 20
	// maxWork bounds the bytes scanned plus macro calls made while expanding one spec, so that
	// macros which expand to nothing many times over still end.
	maxWork = 16 << 20
)

var errRecursion = errors.New("Too many levels of recursion in macro expansion. It is likely caused by recursive macro declaration.")

// macro is one definition. Definitions stack as in rpm: %define pushes, %undefine pops, and a
// parametric call pushes its arguments (%1, %*, %{-f}, …) for the time of the call.
type macro struct {
	body    string
	opts    string // getopt string of a parametric macro
	param   bool   // defined with "(opts)": takes arguments
	literal bool   // body is emitted as is, never expanded (rpm's RPMMACRO_LITERAL)
	fn      func(e *expander, name, arg string, depth int, out *[]byte) error
	line    bool // fn takes the rest of the line when called as %name
	prev    *macro
}

// expander holds the macro table of one Parse and the budgets that bound it. The table is two
// layers: base, the built-in and default macros shared by every Parse and never changed, and m,
// this Parse's own definitions on top (a nil entry hides a base macro that was undefined).
type expander struct {
	base    map[string]*macro
	m       map[string]*macro
	written int    // bytes written by expansion so far
	limit   int    // most bytes expansion may write
	work    int    // bytes scanned plus calls made so far
	buf     []byte // Expand's output, reused (Expand is never called from inside itself)
}

func newExpander(specSize int) *expander {
	return &expander{base: baseMacros, m: make(map[string]*macro, 32), limit: 2*specSize + MaxExpansionGrowth}
}

// lookup returns the newest definition of name, or nil.
func (e *expander) lookup(name string) *macro {
	if m, ok := e.m[name]; ok {
		return m
	}
	return e.base[name]
}

// define pushes a plain (or, with opts != nil, parametric) macro.
func (e *expander) define(name, body string, opts *string) {
	m := &macro{body: body, prev: e.lookup(name)}
	if opts != nil {
		m.param, m.opts = true, *opts
	}
	e.m[name] = m
}

// push pushes a prepared definition.
func (e *expander) push(name string, m *macro) {
	m.prev = e.lookup(name)
	e.m[name] = m
}

// undefine pops the newest definition of name.
func (e *expander) undefine(name string) {
	if m := e.lookup(name); m != nil && m.fn == nil {
		e.m[name] = m.prev
	}
}

func (e *expander) defined(name string) bool { return e.lookup(name) != nil }

// Expand expands every macro in s. It is the top-level entry: nested expansions use expand.
func (e *expander) Expand(s string) (string, error) {
	if strings.IndexByte(s, '%') < 0 {
		e.work += len(s)
		return s, nil
	}
	e.buf = e.buf[:0]
	if err := e.expand(s, 0, &e.buf); err != nil {
		return "", err
	}
	return string(e.buf), nil
}

// emit appends text to out within the output budget.
func (e *expander) emit(out *[]byte, text string) error {
	e.written += len(text)
	if e.written > e.limit {
		return errors.New("macro expansion too large (more than 1 MiB beyond the spec's size)")
	}
	*out = append(*out, text...)
	return nil
}

// expand appends the expansion of s to out. depth counts nested macro bodies.
func (e *expander) expand(s string, depth int, out *[]byte) error {
	if depth > MaxMacroDepth {
		return errRecursion
	}
	e.work += len(s) + 1
	if e.work > maxWork {
		return errors.New("macro expansion too complex")
	}
	for i := 0; i < len(s); {
		k := strings.IndexByte(s[i:], '%')
		if k < 0 {
			return e.emit(out, s[i:])
		}
		if err := e.emit(out, s[i:i+k]); err != nil {
			return err
		}
		i += k
		next, err := e.expandOne(s, i, depth, out)
		if err != nil {
			return err
		}
		i = next
	}
	return nil
}

// expandOne expands the macro reference that starts at s[i] == '%' and returns where the text
// after it begins.
func (e *expander) expandOne(s string, i, depth int, out *[]byte) (int, error) {
	if i+1 >= len(s) {
		return i + 1, e.emit(out, "%")
	}
	switch c := s[i+1]; c {
	case '%':
		return i + 2, e.emit(out, "%")
	case '{':
		end := matchChar(s, i+1, '{', '}')
		if end < 0 {
			return 0, errors.New("Unterminated {: " + clip(s[i:]))
		}
		return e.braced(s, i, end, depth, out)
	case '(':
		// Shell expansion: the farm runs no shell while parsing, so the text stays as written.
		end := matchChar(s, i+1, '(', ')')
		if end < 0 {
			return 0, errors.New("Unterminated (: " + clip(s[i:]))
		}
		return end, e.emit(out, s[i:end])
	case '[':
		end := matchChar(s, i+1, '[', ']')
		if end < 0 {
			return 0, errors.New("Unterminated [: " + clip(s[i:]))
		}
		v, err := e.evalExpr(s[i+2:end-1], depth)
		if err != nil {
			return 0, err
		}
		return end, e.emit(out, v.String())
	}
	return e.unbraced(s, i, depth, out)
}

// matchChar returns the index after the close that matches the open at s[i], skipping
// backslash-escaped bytes as rpm's matchchar does, or -1.
func matchChar(s string, i int, open, close byte) int {
	lvl := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case close:
			lvl--
			if lvl <= 0 {
				return i + 1
			}
		case open:
			lvl++
		}
	}
	return -1
}

func isNameByte(c byte) bool { return isAlnum(c) || c == '_' }

// clip shortens text quoted in an error message to its first line and 80 bytes.
func clip(s string) string {
	if k := strings.IndexByte(s, '\n'); k >= 0 {
		s = s[:k] + "…"
	}
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// braced expands "%{…}" spanning s[i:end].
func (e *expander) braced(s string, i, end, depth int, out *[]byte) (int, error) {
	f := s[i+2 : end-1]
	negate, chk := false, false
	for len(f) > 0 && (f[0] == '!' || f[0] == '?') {
		if f[0] == '!' {
			negate = !negate
		} else {
			chk = true
		}
		f = f[1:]
	}
	n := strings.IndexAny(f, " \t:")
	name, arg, hasArg, colon := f, "", false, false
	if n >= 0 {
		name, arg, hasArg, colon = f[:n], f[n+1:], true, f[n] == ':'
	}
	if name == "" {
		// "%{}" and the like: rpm leaves a lone '%' and reads on.
		return i + 1, e.emit(out, "%")
	}
	m := e.lookup(name)
	if m != nil && m.fn != nil && !chk && !negate {
		if m.line {
			v, err := e.sub(arg, depth)
			if err != nil {
				return 0, err
			}
			arg = v
		}
		return end, m.fn(e, name, arg, depth, out)
	}
	if name[0] == '-' || chk {
		if (m == nil) != negate {
			return end, nil
		}
		if colon {
			return end, e.expand(arg, depth+1, out)
		}
		if m != nil {
			return end, e.call(m, name, "", false, depth, out)
		}
		return end, nil
	}
	if m == nil {
		return i + 1, e.emit(out, "%")
	}
	if hasArg && !colon && m.param {
		return end, e.call(m, name, arg, true, depth, out)
	}
	if colon && m.param {
		return end, e.callArgs(m, name, []string{arg}, depth, out)
	}
	return end, e.call(m, name, "", false, depth, out)
}

// unbraced expands "%name", "%?name", "%!?name", "%*", "%**", "%#", "%1" or "%-f" at s[i].
func (e *expander) unbraced(s string, i, depth int, out *[]byte) (int, error) {
	j := i + 1
	negate, chk := false, false
	for j < len(s) && (s[j] == '!' || s[j] == '?') {
		if s[j] == '!' {
			negate = !negate
		} else {
			chk = true
		}
		j++
	}
	start := j
	switch {
	case j < len(s) && s[j] == '*':
		j++
		if j < len(s) && s[j] == '*' {
			j++
		}
	case j < len(s) && s[j] == '#':
		j++
	case j < len(s) && s[j] == '-':
		j++
		for j < len(s) && isNameByte(s[j]) {
			j++
		}
		if j < len(s) && s[j] == '*' {
			j++
		}
	default:
		for j < len(s) && isNameByte(s[j]) {
			j++
		}
	}
	name := s[start:j]
	if name == "" || name == "-" {
		return i + 1, e.emit(out, "%")
	}
	m := e.lookup(name)
	if chk || name[0] == '-' {
		if (m == nil) != negate || m == nil {
			return j, nil
		}
		return j, e.call(m, name, "", false, depth, out)
	}
	if m == nil {
		return i + 1, e.emit(out, "%")
	}
	if m.fn != nil {
		if name == "define" || name == "global" || name == "undefine" || name == "dnl" {
			return e.directive(name, s, j, depth, out)
		}
		if !m.line {
			return j, m.fn(e, name, "", depth, out)
		}
	}
	if !m.param && m.fn == nil {
		return j, e.call(m, name, "", false, depth, out)
	}
	// A parametric macro called as "%name args" takes the rest of the line.
	eol := strings.IndexByte(s[j:], '\n')
	if eol < 0 {
		eol = len(s)
	} else {
		eol += j
	}
	args := strings.TrimLeft(s[j:eol], " \t")
	if m.fn != nil {
		expanded, err := e.sub(args, depth)
		if err != nil {
			return 0, err
		}
		return eol, m.fn(e, name, expanded, depth, out)
	}
	return eol, e.call(m, name, args, true, depth, out)
}

// sub expands s into a new string, one level deeper.
func (e *expander) sub(s string, depth int) (string, error) {
	if strings.IndexByte(s, '%') < 0 {
		return s, nil
	}
	var b []byte
	if err := e.expand(s, depth+1, &b); err != nil {
		return "", err
	}
	return string(b), nil
}
