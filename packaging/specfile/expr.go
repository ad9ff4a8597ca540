package specfile

import (
	"errors"
	"strconv"
	"strings"
)

// value is the result of an rpm expression: an integer, a "string" or a v"version".
type value struct {
	kind byte // 'i', 's' or 'v'
	i    int64
	s    string
}

func (v value) bool() bool {
	if v.kind == 'i' {
		return v.i != 0
	}
	return v.s != ""
}

func (v value) String() string {
	if v.kind == 'i' {
		return strconv.FormatInt(v.i, 10)
	}
	return v.s
}

// evalExpr expands the macros in src, then evaluates it as rpm evaluates %if conditions and
// %[…] expressions.
func (e *expander) evalExpr(src string, depth int) (value, error) {
	text, err := e.sub(src, depth)
	if err != nil {
		return value{}, err
	}
	return evalExpr(text)
}

// evalExpr evaluates an expanded rpm expression. The grammar is rpm's (rpmio/expression.c),
// loosest first: c ? a : b; ||; &&; == != < <= > >=; + -; * /; unary ! and -; then (…),
// integers, "strings" and v"versions". Operands of a binary operator must be of one type;
// strings compare byte-wise and concatenate with +, versions compare with Vercmp, && and || on
// strings yield an operand as in rpm. Bare words are refused, as rpm ≥ 4.16 refuses them.
func evalExpr(text string) (value, error) {
	p := &exprParser{s: text}
	p.next()
	v, err := p.ternary(false)
	if err != nil {
		return value{}, err
	}
	if p.err != nil {
		return value{}, p.err
	}
	if p.tok != tokEOF {
		return value{}, errors.New("syntax error in expression")
	}
	return v, nil
}

const (
	tokEOF = iota
	tokInt
	tokStr
	tokVer
	tokOp
)

type exprParser struct {
	s   string
	pos int
	tok int
	op  string // operator text, for tokOp
	val value  // literal, for tokInt/tokStr/tokVer
	err error
}

// next reads the next token into p.tok.
func (p *exprParser) next() {
	s := p.s
	for p.pos < len(s) && (s[p.pos] == ' ' || s[p.pos] == '\t' || s[p.pos] == '\n' || s[p.pos] == '\r') {
		p.pos++
	}
	if p.pos >= len(s) {
		p.tok = tokEOF
		return
	}
	c := s[p.pos]
	switch {
	case isDigit(c):
		j := p.pos
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		n, err := strconv.ParseInt(s[p.pos:j], 10, 64)
		if err != nil {
			p.err = errors.New("integer overflow in expression")
		}
		p.tok, p.val, p.pos = tokInt, value{kind: 'i', i: n}, j
		if j < len(s) && (isAlpha(s[j]) || s[j] == '_') {
			p.err = errors.New("bare words are no longer supported, please use \"...\"")
		}
	case c == '"' || c == 'v' && p.pos+1 < len(s) && s[p.pos+1] == '"':
		kind, tok := byte('s'), tokStr
		if c == 'v' {
			kind, tok = 'v', tokVer
			p.pos++
		}
		end := strings.IndexByte(s[p.pos+1:], '"')
		if end < 0 {
			p.err = errors.New("unterminated string in expression")
			p.tok = tokEOF
			return
		}
		p.tok, p.val = tok, value{kind: kind, s: s[p.pos+1 : p.pos+1+end]}
		p.pos += end + 2
	case isAlpha(c) || c == '_':
		p.err = errors.New("bare words are no longer supported, please use \"...\"")
		p.tok = tokEOF
	default:
		for _, op := range [...]string{"==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "+", "-", "*", "/", "(", ")", "?", ":"} {
			if strings.HasPrefix(s[p.pos:], op) {
				p.tok, p.op = tokOp, op
				p.pos += len(op)
				return
			}
		}
		p.err = errors.New("syntax error in expression")
		p.tok = tokEOF
	}
}

func (p *exprParser) is(op string) bool { return p.tok == tokOp && p.op == op }

// ternary parses "c ? a : b" (or just c). discard marks a branch that is not taken, where rpm
// does not report division by zero.
func (p *exprParser) ternary(discard bool) (value, error) {
	c, err := p.or(discard)
	if err != nil || !p.is("?") {
		return c, err
	}
	p.next()
	a, err := p.ternary(discard || !c.bool())
	if err != nil {
		return value{}, err
	}
	if !p.is(":") {
		return value{}, errors.New("syntax error while parsing ?:")
	}
	p.next()
	b, err := p.ternary(discard || c.bool())
	if err != nil {
		return value{}, err
	}
	if c.bool() {
		return a, nil
	}
	return b, nil
}

func (p *exprParser) or(discard bool) (value, error) {
	return p.logical("||", discard, p.and)
}

func (p *exprParser) and(discard bool) (value, error) {
	return p.logical("&&", discard, p.relational)
}

// logical parses a chain of && or ||: integers give 0 or 1, strings give the deciding operand.
func (p *exprParser) logical(op string, discard bool, sub func(bool) (value, error)) (value, error) {
	a, err := sub(discard)
	if err != nil {
		return value{}, err
	}
	for p.is(op) {
		p.next()
		skip := discard || (op == "&&") != a.bool()
		b, err := sub(skip)
		if err != nil {
			return value{}, err
		}
		if a.kind != b.kind {
			return value{}, errors.New("types must match")
		}
		if a.kind == 'i' {
			r := a.bool() && b.bool()
			if op == "||" {
				r = a.bool() || b.bool()
			}
			a = boolValue(r)
		} else if (op == "&&") == a.bool() {
			a = b
		}
	}
	return a, nil
}

func boolValue(b bool) value {
	if b {
		return value{kind: 'i', i: 1}
	}
	return value{kind: 'i', i: 0}
}

func (p *exprParser) relational(discard bool) (value, error) {
	a, err := p.additive(discard)
	if err != nil {
		return value{}, err
	}
	for p.tok == tokOp && (p.op == "==" || p.op == "!=" || p.op == "<" || p.op == "<=" || p.op == ">" || p.op == ">=") {
		op := p.op
		p.next()
		b, err := p.additive(discard)
		if err != nil {
			return value{}, err
		}
		if a.kind != b.kind {
			return value{}, errors.New("types must match")
		}
		var c int
		switch a.kind {
		case 'i':
			c = cmpInt(a.i, b.i)
		case 's':
			c = strings.Compare(a.s, b.s)
		default:
			c = EVRCompare(a.s, b.s)
		}
		switch op {
		case "==":
			a = boolValue(c == 0)
		case "!=":
			a = boolValue(c != 0)
		case "<":
			a = boolValue(c < 0)
		case "<=":
			a = boolValue(c <= 0)
		case ">":
			a = boolValue(c > 0)
		default:
			a = boolValue(c >= 0)
		}
	}
	return a, nil
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (p *exprParser) additive(discard bool) (value, error) {
	a, err := p.multiplicative(discard)
	if err != nil {
		return value{}, err
	}
	for p.is("+") || p.is("-") {
		op := p.op
		p.next()
		b, err := p.multiplicative(discard)
		if err != nil {
			return value{}, err
		}
		if a.kind != b.kind {
			return value{}, errors.New("types must match")
		}
		switch {
		case a.kind == 'i' && op == "+":
			a.i += b.i
		case a.kind == 'i':
			a.i -= b.i
		case a.kind == 's' && op == "+":
			a.s += b.s
		default:
			return value{}, errors.New("- only on numbers")
		}
	}
	return a, nil
}

func (p *exprParser) multiplicative(discard bool) (value, error) {
	a, err := p.unary(discard)
	if err != nil {
		return value{}, err
	}
	for p.is("*") || p.is("/") {
		op := p.op
		p.next()
		b, err := p.unary(discard)
		if err != nil {
			return value{}, err
		}
		if a.kind != 'i' || b.kind != 'i' {
			return value{}, errors.New("* and / only on numbers")
		}
		switch {
		case op == "*":
			a.i *= b.i
		case b.i == 0 && discard:
			a.i = 0
		case b.i == 0:
			return value{}, errors.New("division by zero")
		default:
			a.i /= b.i
		}
	}
	return a, nil
}

func (p *exprParser) unary(discard bool) (value, error) {
	if p.err != nil {
		return value{}, p.err
	}
	switch {
	case p.is("!"):
		p.next()
		v, err := p.unary(discard)
		if err != nil {
			return value{}, err
		}
		if v.kind == 'v' {
			return value{}, errors.New("! only on numbers or strings")
		}
		return boolValue(!v.bool()), nil
	case p.is("-"):
		p.next()
		v, err := p.unary(discard)
		if err != nil {
			return value{}, err
		}
		if v.kind != 'i' {
			return value{}, errors.New("- only on numbers")
		}
		v.i = -v.i
		return v, nil
	case p.is("("):
		p.next()
		v, err := p.ternary(discard)
		if err != nil {
			return value{}, err
		}
		if !p.is(")") {
			return value{}, errors.New("unmatched (")
		}
		p.next()
		return v, nil
	case p.tok == tokInt || p.tok == tokStr || p.tok == tokVer:
		v := p.val
		p.next()
		if p.err != nil {
			return value{}, p.err
		}
		return v, nil
	case p.tok == tokEOF:
		return value{}, errors.New("unexpected end of expression")
	}
	return value{}, errors.New("syntax error while parsing " + p.op)
}
