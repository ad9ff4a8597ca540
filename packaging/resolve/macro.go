package resolve

import (
	"errors"
	"strconv"
	"strings"
)

// This file holds the little of rpm's macro language a project configuration uses: %define,
// %{name}, %{?name}, %{?name:text}, %{!?name:text} and %if/%ifarch conditionals, as the build
// service evaluates them while reading a configuration. Shell (%(...)) and parametric macros
// are left as written.

// Expansion limits keep hostile text (self-referencing or doubling macros) from running away.
const (
	maxMacroDepth  = 16
	maxMacroOutput = 64 << 10
)

// expandMacros replaces the macros of s with their values from defs. Undefined %{name} and
// %name stay literal, as rpm leaves them.
func expandMacros(s string, defs map[string]string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	expandInto(&b, s, defs, 0)
	return b.String()
}

func expandInto(b *strings.Builder, s string, defs map[string]string, depth int) {
	for len(s) > 0 {
		if b.Len() > maxMacroOutput {
			return
		}
		i := strings.IndexByte(s, '%')
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		s = s[i:]
		switch {
		case len(s) == 1:
			b.WriteByte('%')
			return
		case s[1] == '%':
			b.WriteByte('%')
			s = s[2:]
		case s[1] == '{':
			end := matchingBrace(s, 1)
			if end < 0 {
				b.WriteString(s)
				return
			}
			expandBraced(b, s[:end+1], s[2:end], defs, depth)
			s = s[end+1:]
		case isNameByte(s[1]):
			n := 1
			for n < len(s) && isNameByte(s[n]) {
				n++
			}
			name := s[1:n]
			if v, ok := defs[name]; ok && depth < maxMacroDepth {
				expandInto(b, v, defs, depth+1)
			} else {
				b.WriteString(s[:n])
			}
			s = s[n:]
		default:
			b.WriteByte('%')
			s = s[1:]
		}
	}
}

// expandBraced expands the body of one %{...}: literal is the whole "%{...}" for undefined names.
func expandBraced(b *strings.Builder, literal, body string, defs map[string]string, depth int) {
	if depth >= maxMacroDepth {
		b.WriteString(literal)
		return
	}
	cond, negate := false, false
	for len(body) > 0 && (body[0] == '?' || body[0] == '!') {
		if body[0] == '?' {
			cond = true
		} else {
			negate = true
		}
		body = body[1:]
	}
	name, text, hasText := strings.Cut(body, ":")
	v, defined := defs[name]
	switch {
	case cond && negate:
		if !defined && hasText {
			expandInto(b, text, defs, depth+1)
		}
	case cond:
		if defined {
			if hasText {
				expandInto(b, text, defs, depth+1)
			} else {
				expandInto(b, v, defs, depth+1)
			}
		}
	case defined:
		expandInto(b, v, defs, depth+1)
	default:
		b.WriteString(literal)
	}
}

// matchingBrace returns the index of the "}" closing the "{" at open, or -1.
func matchingBrace(s string, open int) int {
	level := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '{':
			level++
		case '}':
			level--
			if level == 0 {
				return i
			}
		}
	}
	return -1
}

func isNameByte(c byte) bool { return c == '_' || isDigit(c) || isAlpha(c) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// errBadExpr is what an %if expression that does not parse evaluates to.
var errBadExpr = errors.New("bad %if expression")

// evalCondition evaluates the (already macro-expanded) expression of an %if line: integers,
// "strings", bare words (as strings), ! - && || == != < > <= >= and parentheses.
func evalCondition(expr string) (bool, error) {
	p := exprParser{toks: tokenizeExpr(expr)}
	if p.toks == nil {
		return false, errBadExpr
	}
	v, err := p.or()
	if err != nil || p.pos != len(p.toks) {
		return false, errBadExpr
	}
	return v.truth(), nil
}

type exprValue struct {
	isNum bool
	num   int64
	str   string
}

func (v exprValue) truth() bool {
	if v.isNum {
		return v.num != 0
	}
	return v.str != ""
}

// String is the value as text; a number compared with a string compares as text.
func (v exprValue) String() string {
	if v.isNum {
		return strconv.FormatInt(v.num, 10)
	}
	return v.str
}

func boolValue(b bool) exprValue {
	if b {
		return exprValue{isNum: true, num: 1}
	}
	return exprValue{isNum: true}
}

// tokenizeExpr splits an expression into tokens; nil means it has an unterminated string.
func tokenizeExpr(s string) []string {
	toks := []string{}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return nil
			}
			toks = append(toks, s[i:i+j+2])
			i += j + 2
		case strings.HasPrefix(s[i:], "&&") || strings.HasPrefix(s[i:], "||") ||
			strings.HasPrefix(s[i:], "==") || strings.HasPrefix(s[i:], "!=") ||
			strings.HasPrefix(s[i:], "<=") || strings.HasPrefix(s[i:], ">="):
			toks = append(toks, s[i:i+2])
			i += 2
		case strings.IndexByte("()!<>-", c) >= 0:
			toks = append(toks, s[i:i+1])
			i++
		default:
			j := i
			for j < len(s) && strings.IndexByte(" \t\"()!<>=&|-", s[j]) < 0 {
				j++
			}
			if j == i { // a lone "=", "&" or "|"
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks
}

type exprParser struct {
	toks []string
	pos  int
}

func (p *exprParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *exprParser) or() (exprValue, error) {
	l, err := p.and()
	for err == nil && p.peek() == "||" {
		p.pos++
		var r exprValue
		if r, err = p.and(); err == nil {
			l = boolValue(l.truth() || r.truth())
		}
	}
	return l, err
}

func (p *exprParser) and() (exprValue, error) {
	l, err := p.compare()
	for err == nil && p.peek() == "&&" {
		p.pos++
		var r exprValue
		if r, err = p.compare(); err == nil {
			l = boolValue(l.truth() && r.truth())
		}
	}
	return l, err
}

func (p *exprParser) compare() (exprValue, error) {
	l, err := p.unary()
	for err == nil {
		op := p.peek()
		if op != "==" && op != "!=" && op != "<" && op != ">" && op != "<=" && op != ">=" {
			break
		}
		p.pos++
		var r exprValue
		if r, err = p.unary(); err != nil {
			break
		}
		c := strings.Compare(l.String(), r.String())
		if l.isNum && r.isNum {
			c = 0
			if l.num < r.num {
				c = -1
			} else if l.num > r.num {
				c = 1
			}
		}
		l = boolValue(op == "==" && c == 0 || op == "!=" && c != 0 || op == "<" && c < 0 ||
			op == ">" && c > 0 || op == "<=" && c <= 0 || op == ">=" && c >= 0)
	}
	return l, err
}

func (p *exprParser) unary() (exprValue, error) {
	switch p.peek() {
	case "!":
		p.pos++
		v, err := p.unary()
		return boolValue(!v.truth()), err
	case "-":
		p.pos++
		v, err := p.unary()
		if err != nil || !v.isNum {
			return exprValue{}, errBadExpr
		}
		return exprValue{isNum: true, num: -v.num}, nil
	}
	return p.primary()
}

func (p *exprParser) primary() (exprValue, error) {
	t := p.peek()
	p.pos++
	switch {
	case t == "" || t == ")" || t == "&&" || t == "||" || t == "==" || t == "!=" ||
		t == "<" || t == ">" || t == "<=" || t == ">=" || t == "=" || t == "&" || t == "|":
		return exprValue{}, errBadExpr
	case t == "(":
		v, err := p.or()
		if err != nil || p.peek() != ")" {
			return exprValue{}, errBadExpr
		}
		p.pos++
		return v, nil
	case t[0] == '"':
		return exprValue{str: t[1 : len(t)-1]}, nil
	case isDigit(t[0]):
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return exprValue{}, errBadExpr
		}
		return exprValue{isNum: true, num: n}, nil
	}
	return exprValue{str: t}, nil
}
