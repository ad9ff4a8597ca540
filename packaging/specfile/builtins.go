package specfile

import (
	"errors"
	"path"
	"strings"
)

// builtin is a macro implemented in Go; line marks those that, called as "%name args", take the
// rest of the line as their argument (like rpm's parametric macros).
type builtin struct {
	fn   func(e *expander, name, arg string, depth int, out *[]byte) error
	line bool
}

// builtinFuncs are the built-in macros the farm implements. The rest of rpm's (%{lua:…}, %(…),
// %{load:…}, %{uncompress:…}) cannot run here; an unknown macro stays in the text as written,
// exactly as rpm leaves an undefined one.
var builtinFuncs map[string]builtin

func init() {
	text := func(f func(string) string) builtin {
		return builtin{fn: func(e *expander, _, arg string, depth int, out *[]byte) error {
			v, err := e.sub(arg, depth)
			if err != nil {
				return err
			}
			return e.emit(out, f(v))
		}}
	}
	none := func(string) string { return "" }
	builtinFuncs = map[string]builtin{
		"define":   {fn: defineFn},
		"global":   {fn: defineFn},
		"undefine": {fn: undefineFn},
		"dnl":      {fn: func(*expander, string, string, int, *[]byte) error { return nil }},
		"expand": {fn: func(e *expander, _, arg string, depth int, out *[]byte) error {
			v, err := e.sub(arg, depth)
			if err != nil {
				return err
			}
			return e.expand(v, depth+1, out)
		}},
		"quote":    text(func(s string) string { return s }),
		"basename": text(path.Base),
		"dirname":  text(path.Dir),
		"suffix": text(func(s string) string {
			if k := strings.LastIndexByte(s, '.'); k >= 0 {
				return s[k+1:]
			}
			return ""
		}),
		"upper":     text(strings.ToUpper),
		"lower":     text(strings.ToLower),
		"len":       text(func(s string) string { return itoa(len([]rune(s))) }),
		"shrink":    text(func(s string) string { return strings.Join(strings.Fields(s), " ") }),
		"url2path":  text(url2path),
		"u2p":       text(url2path),
		"echo":      {fn: text(none).fn, line: true},
		"warn":      {fn: text(none).fn, line: true},
		"verbose":   text(func(string) string { return "0" }),
		"getenv":    text(none),
		"getncpus":  text(func(string) string { return "4" }),
		"exists":    text(func(string) string { return "0" }),
		"load":      text(none),
		"dump":      text(none),
		"trace":     text(none),
		"S":         {fn: sourceRef("SOURCE")},
		"P":         {fn: sourceRef("PATCH")},
		"defined":   {fn: definedFn(true)},
		"undefined": {fn: definedFn(false)},
		"error": {fn: func(e *expander, _, arg string, depth int, _ *[]byte) error {
			v, err := e.sub(arg, depth)
			if err != nil {
				return err
			}
			if v = strings.TrimSpace(v); v == "" {
				v = "%error"
			}
			return errors.New(v)
		}, line: true},
		"bcond_with":    {fn: bcondFn, line: true},
		"bcond_without": {fn: bcondFn, line: true},
		"bcond":         {fn: bcondFn, line: true},
	}
	baseMacros = buildBaseMacros()
}

// url2path keeps the path of a URL, as rpm's %{url2path:…}.
func url2path(s string) string {
	if k := strings.Index(s, "://"); k >= 0 {
		if p := strings.IndexByte(s[k+3:], '/'); p >= 0 {
			return s[k+3+p:]
		}
	}
	return s
}

// sourceRef makes %{S:n} and %{P:n}: the path of source or patch n.
func sourceRef(prefix string) func(e *expander, name, arg string, depth int, out *[]byte) error {
	return func(e *expander, _, arg string, depth int, out *[]byte) error {
		v, err := e.sub(strings.TrimSpace(arg), depth)
		if err != nil {
			return err
		}
		if m := e.lookup(prefix + v); m != nil {
			return e.expand(m.body, depth+1, out)
		}
		return nil
	}
}

// definedFn makes %{defined name} and %{undefined name}.
func definedFn(want bool) func(e *expander, name, arg string, depth int, out *[]byte) error {
	return func(e *expander, _, arg string, depth int, out *[]byte) error {
		v, err := e.sub(strings.TrimSpace(arg), depth)
		if err != nil {
			return err
		}
		if e.defined(v) == want {
			return e.emit(out, "1")
		}
		return e.emit(out, "0")
	}
}

// bcondFn implements %bcond_with NAME (off unless %_with_NAME), %bcond_without NAME (on unless
// %_without_NAME) and %bcond NAME DEFAULT: each defines %with_NAME 1 when the option is on, which
// is what %{with NAME} tests. Project macros (Options.Macros) may set _with_NAME/_without_NAME.
func bcondFn(e *expander, name, arg string, depth int, _ *[]byte) error {
	f := strings.Fields(arg)
	if len(f) == 0 {
		return errors.New("%" + name + ": missing argument")
	}
	on := name == "bcond_without"
	if name == "bcond" {
		if len(f) < 2 {
			return errors.New("%bcond: missing default value")
		}
		v, err := e.evalExpr(strings.Join(f[1:], " "), depth)
		if err != nil {
			return err
		}
		on = v.bool()
	}
	if on && !e.defined("_without_"+f[0]) || !on && e.defined("_with_"+f[0]) {
		if !e.defined("with_" + f[0]) {
			e.define("with_"+f[0], "1", nil)
		}
	}
	return nil
}

// undefineFn pops the newest definition of each name in arg.
func undefineFn(e *expander, _, arg string, _ int, _ *[]byte) error {
	for _, n := range strings.Fields(arg) {
		e.undefine(n)
	}
	return nil
}

// defineFn is the braced form %{define:name body} / %{global:name body}.
func defineFn(e *expander, name, arg string, depth int, _ *[]byte) error {
	_, err := e.doDefine(arg, name == "global", depth, false)
	return err
}

// directive runs %define, %global, %undefine or %dnl written as "%name …" at s[j:], which read
// the rest of the line themselves, and returns where the text after them begins.
func (e *expander) directive(name, s string, j, depth int, out *[]byte) (int, error) {
	switch name {
	case "dnl":
		if k := strings.IndexByte(s[j:], '\n'); k >= 0 {
			return j + k + 1, nil
		}
		return len(s), nil
	case "undefine":
		eol := strings.IndexByte(s[j:], '\n')
		if eol < 0 {
			eol = len(s) - j
		}
		return j + eol, undefineFn(e, name, s[j:j+eol], depth, out)
	}
	n, err := e.doDefine(s[j:], name == "global", depth, true)
	return j + n, err
}

// doDefine parses "name[(opts)] body" as rpm's doDefine does and defines the macro; global
// expands the body now (%global), otherwise it expands at each use (%define). With freeField the
// body runs to the end of the line, unless a %{, %( or %[ is still open, and a backslash
// escapes the next byte (so "\"+newline continues the body on the next line); the count of bytes
// read is returned.
func (e *expander) doDefine(s string, global bool, depth int, freeField bool) (int, error) {
	what := "%define"
	if global {
		what = "%global"
	}
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	ns := i
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	name := s[ns:i]
	var opts *string
	if i < len(s) && s[i] == '(' {
		k := strings.IndexByte(s[i:], ')')
		if k < 0 {
			return 0, errors.New("Macro %" + name + " has unterminated opts")
		}
		o := s[i+1 : i+k]
		opts = &o
		i += k + 1
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	var body []byte
	switch {
	case !freeField:
		body = []byte(s[i:])
		i = len(s)
	case i < len(s) && s[i] == '{':
		end := matchChar(s, i, '{', '}')
		if end < 0 {
			return 0, errors.New("Macro %" + name + " has unterminated body")
		}
		body = []byte(s[i+1 : end-1])
		i = end
	default:
		bc, pc, xc := 0, 0, 0
		for i < len(s) && (bc > 0 || pc > 0 || xc > 0 || s[i] != '\n' && s[i] != '\r') {
			switch s[i] {
			case '\\':
				if i+1 < len(s) {
					i++
				}
			case '%':
				if i+1 < len(s) {
					switch s[i+1] {
					case '{':
						body = append(body, '%')
						i++
						bc++
					case '(':
						body = append(body, '%')
						i++
						pc++
					case '[':
						body = append(body, '%')
						i++
						xc++
					case '%':
						body = append(body, '%')
						i++
					}
				}
			case '{':
				if bc > 0 {
					bc++
				}
			case '}':
				if bc > 0 {
					bc--
				}
			case '(':
				if pc > 0 {
					pc++
				}
			case ')':
				if pc > 0 {
					pc--
				}
			case '[':
				if xc > 0 {
					xc++
				}
			case ']':
				if xc > 0 {
					xc--
				}
			}
			body = append(body, s[i])
			i++
		}
		if bc > 0 || pc > 0 || xc > 0 {
			return 0, errors.New("Macro %" + name + " has unterminated body")
		}
		for len(body) > 0 && strings.IndexByte(" \t\r\n", body[len(body)-1]) >= 0 {
			body = body[:len(body)-1]
		}
	}
	for i < len(s) && (s[i] == '\n' || s[i] == '\r') {
		i++
	}
	if name == "" || !(isAlpha(name[0]) || name[0] == '_' && len(name) > 1) {
		return 0, errors.New("Macro %" + name + " has illegal name (" + what + ")")
	}
	if m := e.lookup(name); m != nil && m.fn != nil {
		return 0, errors.New("Macro %" + name + " is a built-in (" + what + ")")
	}
	if len(body) == 0 {
		return 0, errors.New("Macro %" + name + " has empty body")
	}
	b := string(body)
	if global {
		v, err := e.sub(b, depth)
		if err != nil {
			return 0, err
		}
		b = v
	}
	e.define(name, b, opts)
	return i, nil
}
