package xpath

import (
	"fmt"
	"strings"
)

// The predicate grammar the build service's search takes: XPath 1.0's or, and, comparisons,
// parentheses, string and number literals, relative location paths of child and attribute
// steps with nested predicates, and function calls. What OBS's engine refuses is refused here
// while parsing, with its words: other operators and axes ("illegal token X ':union'"),
// other functions ("unknown xpath function 'position'"). osc's `devel/[…]` (a predicate after a
// slash, which XPath has not) reads as `devel[…]`.

// expr is a node of a parsed predicate.
type expr interface{ isExpr() }

// binary is `L op R`: op is or, and, =, !=, <, <=, > or >=.
type binary struct {
	op   string
	l, r expr
}

// call is a function call: contains, starts-with, ends-with, not or boolean.
type call struct {
	name string
	args []expr
}

// literal is a string literal.
type literal struct{ value string }

// number is a number literal, kept as written.
type number struct{ text string }

// path is a relative location path.
type path struct{ steps []step }

// step is one child (name or *) or attribute (attr) step with its predicates.
type step struct {
	name  string
	attr  bool
	preds []expr
}

func (binary) isExpr()  {}
func (call) isExpr()    {}
func (literal) isExpr() {}
func (number) isExpr()  {}
func (*path) isExpr()   {}

// functions are the functions OBS's engine knows, with their argument counts.
var functions = map[string]int{"contains": 2, "starts-with": 2, "ends-with": 2, "not": 1, "boolean": 1}

// token kinds of the lexer.
const (
	tEOF = iota
	tName
	tString
	tNumber
	tOp // punctuation and operators: text holds it
)

type token struct {
	kind int
	text string
}

// lex splits s into tokens, or says where it cannot.
func lex(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unterminated string literal at %d", i)
			}
			out = append(out, token{tString, s[i+1 : i+1+j]})
			i += j + 2
		case isDigit(c) || c == '.' && i+1 < len(s) && isDigit(s[i+1]):
			j := i
			for j < len(s) && (isDigit(s[j]) || s[j] == '.') {
				j++
			}
			out = append(out, token{tNumber, s[i:j]})
			i = j
		case isNameStart(c):
			j := i
			for j < len(s) && isNameChar(s[j]) {
				j++
			}
			out = append(out, token{tName, s[i:j]})
			i = j
		default:
			op := string(c)
			if i+1 < len(s) {
				switch two := s[i : i+2]; two {
				case "!=", "<=", ">=", "//", "::", "..":
					op = two
				}
			}
			if !strings.Contains("()[]@,/|=!<>*+-$.:", op[:1]) || op == "!" || op == ":" {
				return nil, fmt.Errorf("unexpected character %q at %d", c, i)
			}
			out = append(out, token{tOp, op})
			i += len(op)
		}
	}
	return append(out, token{kind: tEOF}), nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isNameStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}
func isNameChar(c byte) bool { return isNameStart(c) || isDigit(c) || c == '-' || c == '.' }

// parser reads tokens into an expr.
type parser struct {
	toks []token
	pos  int
}

func (p *parser) peek() token { return p.toks[p.pos] }
func (p *parser) next() token { t := p.toks[p.pos]; p.pos++; return t }

// isOp reports whether the next token is the operator op (a name for and, or, div, mod).
func (p *parser) isOp(op string) bool {
	t := p.peek()
	return (t.kind == tOp || t.kind == tName) && t.text == op
}

// parse reads a whole predicate.
func parse(s string) (expr, error) {
	toks, err := lex(s)
	if err != nil {
		return nil, illegal("failed to parse: %v", err)
	}
	// Bounded before the recursive descent below (and antchfx's own, which is recursive too),
	// so that no predicate can take much stack or time: the depth of parentheses, brackets and
	// calls, and how many conditions and/or join.
	depth, joins := 0, 0
	for _, t := range toks {
		switch {
		case t.kind == tName && (t.text == "and" || t.text == "or"):
			if joins++; joins >= maxConditions {
				return nil, illegal("failed to parse: more than %d conditions joined by and/or", maxConditions)
			}
		case t.kind != tOp:
		case t.text == "(" || t.text == "[":
			if depth++; depth > maxDepth {
				return nil, illegal("failed to parse: nested deeper than %d levels", maxDepth)
			}
		case t.text == ")" || t.text == "]":
			depth--
		}
	}
	p := &parser{toks: toks}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.unexpected(t)
	}
	return e, nil
}

// unexpected names a token that cannot stand where it stands: an operator OBS refuses by the
// name its parser gives it, anything else as a parse failure.
func (p *parser) unexpected(t token) error {
	names := map[string]string{"|": "union", "+": "plus", "-": "minus", "*": "mult", "div": "div",
		"mod": "mod", "$": "variable", "//": "descendant_or_self", "..": "parent", ".": "self"}
	if n, ok := names[t.text]; ok && t.kind != tString {
		return illegal("illegal token X ':%s'", n)
	}
	if t.kind == tEOF {
		return illegal("failed to parse: unexpected end of expression")
	}
	return illegal("failed to parse: unexpected %q", t.text)
}

func (p *parser) or() (expr, error)  { return p.chain(p.and, "or") }
func (p *parser) and() (expr, error) { return p.chain(p.cmp, "and") }
func (p *parser) cmp() (expr, error) {
	return p.chain(p.primary, "=", "!=", "<", "<=", ">", ">=")
}

// chain reads operands with sub, joined left to right by any of ops.
func (p *parser) chain(sub func() (expr, error), ops ...string) (expr, error) {
	l, err := sub()
	if err != nil {
		return nil, err
	}
	for {
		op := ""
		for _, o := range ops {
			if p.isOp(o) {
				op = o
			}
		}
		if op == "" {
			if t := p.peek(); t.kind != tEOF && t.text != ")" && t.text != "]" && t.text != "," &&
				t.text != "or" && t.text != "and" && !isCmp(t.text) {
				return nil, p.unexpected(t)
			}
			return l, nil
		}
		p.next()
		r, err := sub()
		if err != nil {
			return nil, err
		}
		l = binary{op, l, r}
	}
}

func isCmp(s string) bool {
	switch s {
	case "=", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

// primary reads a parenthesised expression, a literal, a function call or a path.
func (p *parser) primary() (expr, error) {
	t := p.peek()
	switch {
	case t.kind == tString:
		p.next()
		return literal{t.text}, nil
	case t.kind == tNumber:
		p.next()
		return number{t.text}, nil
	case t.text == "(" && t.kind == tOp:
		p.next()
		e, err := p.or()
		if err != nil {
			return nil, err
		}
		if !p.isOp(")") {
			return nil, p.unexpected(p.peek())
		}
		p.next()
		return e, nil
	case t.kind == tName && p.toks[p.pos+1].text == "(" && p.toks[p.pos+1].kind == tOp:
		return p.call()
	case t.kind == tName || t.text == "@" || t.text == "*":
		return p.path()
	case t.text == "/":
		return nil, illegal("illegal token X ':document'")
	case t.text == "-":
		return nil, illegal("illegal token X ':neg'")
	}
	return nil, p.unexpected(t)
}

// call reads a function call to one of the functions OBS knows.
func (p *parser) call() (expr, error) {
	name := p.next().text
	want, ok := functions[name]
	if !ok {
		return nil, illegal("unknown xpath function '%s'", name)
	}
	p.next() // (
	c := call{name: name}
	for !p.isOp(")") {
		if len(c.args) > 0 {
			if !p.isOp(",") {
				return nil, p.unexpected(p.peek())
			}
			p.next()
		}
		a, err := p.or()
		if err != nil {
			return nil, err
		}
		c.args = append(c.args, a)
	}
	p.next()
	if len(c.args) != want {
		return nil, illegal("wrong number of arguments for '%s': %d, want %d", name, len(c.args), want)
	}
	return c, nil
}

// path reads child steps separated by slashes, the last one possibly an attribute, each with
// its predicates. A predicate right after a slash belongs to the step before it (osc's
// `devel/[@project=…]`, which OBS takes).
func (p *parser) path() (expr, error) {
	var out path
	for {
		s, err := p.step()
		if err != nil {
			return nil, err
		}
		out.steps = append(out.steps, s)
		if err := p.preds(&out.steps[len(out.steps)-1]); err != nil {
			return nil, err
		}
		if s.attr || !p.isOp("/") {
			return &out, nil
		}
		p.next()
		if p.isOp("[") {
			if err := p.preds(&out.steps[len(out.steps)-1]); err != nil {
				return nil, err
			}
			return &out, nil
		}
	}
}

// step reads one step: name, *, @name, or child::name / attribute::name.
func (p *parser) step() (step, error) {
	t := p.next()
	switch {
	case t.kind == tOp && t.text == "@":
		n := p.next()
		if n.kind != tName {
			return step{}, p.unexpected(n)
		}
		return step{name: n.text, attr: true}, nil
	case t.kind == tOp && t.text == "*":
		return step{name: "*"}, nil
	case t.kind == tName && p.isOp("::"):
		p.next()
		switch t.text {
		case "child", "attribute":
			s, err := p.step()
			if err != nil || s.attr {
				return step{}, illegal("failed to parse: %s:: needs a name", t.text)
			}
			s.attr = t.text == "attribute"
			return s, nil
		}
		return step{}, illegal("illegal token X ':%s'", strings.ReplaceAll(t.text, "-", "_"))
	case t.kind == tName:
		return step{name: t.text}, nil
	}
	return step{}, p.unexpected(t)
}

// preds reads the predicates that follow a step.
func (p *parser) preds(s *step) error {
	for p.isOp("[") {
		p.next()
		e, err := p.or()
		if err != nil {
			return err
		}
		if !p.isOp("]") {
			return p.unexpected(p.peek())
		}
		p.next()
		s.preds = append(s.preds, e)
	}
	return nil
}
