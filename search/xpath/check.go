package xpath

import (
	"strings"
)

// checker holds a parsed predicate to what OBS's engine takes for one table: every path a
// key of the table (or, tested for existence, leading to one), literals only where values go,
// functions with the arguments they need. It rewrites the request aliases on the way.
type checker struct {
	t    table
	keys map[string]bool // every path checked, as the document has it (Query.Keys)
}

// opNames are OBS's parser's names of the operators, which its messages use.
var opNames = map[string]string{"or": "or", "and": "and", "=": "eq", "!=": "neq", "<": "lt",
	"<=": "lteq", ">": "gt", ">=": "gteq"}

// boolean checks e where a condition stands: the predicate, an operand of and/or, not's
// argument. prefix holds the steps of the predicates e is nested in.
func (c checker) boolean(e expr, prefix []string) error {
	switch e := e.(type) {
	case binary:
		check := c.value
		if e.op == "and" || e.op == "or" {
			check = c.boolean
		}
		if err := check(e.l, prefix); err != nil {
			return err
		}
		return check(e.r, prefix)
	case call:
		switch e.name {
		case "not":
			return c.boolean(e.args[0], prefix)
		case "boolean":
			if _, ok := e.args[0].(*path); !ok {
				return illegal("illegal token: '%s'", tokenName(e.args[0]))
			}
		}
		for _, a := range e.args {
			if err := c.value(a, prefix); err != nil {
				return err
			}
		}
		return nil
	case *path:
		key, err := c.path(e, prefix)
		if err != nil {
			return err
		}
		if !c.t.known(key) {
			return illegal("unable to evaluate '%s' for '%s'", key, c.t.name)
		}
		return nil
	}
	return illegal("illegal token X '%s'", tokenName(e))
}

// value checks e where a value stands: a comparison's operand, a function's argument. Only
// literals and keys of the table are values.
func (c checker) value(e expr, prefix []string) error {
	switch e := e.(type) {
	case literal, number:
		return nil
	case *path:
		key, err := c.path(e, prefix)
		if err != nil {
			return err
		}
		if !c.t.keys[key] {
			return illegal("unable to evaluate '%s' for '%s'", key, c.t.name)
		}
		return nil
	}
	return illegal("illegal token: '%s'", tokenName(e))
}

// path checks the predicates of p's steps and answers p's key: the steps of the predicates it
// is nested in and its own, joined with slashes. A request's `target/…` and `source/…` at the
// top are rewritten to the action's.
func (c checker) path(p *path, prefix []string) (string, error) {
	steps := append([]string(nil), prefix...)
	for _, s := range p.steps {
		name := s.name
		if s.attr {
			name = "@" + name
		}
		steps = append(steps, name)
		for _, pr := range s.preds {
			if err := c.boolean(pr, steps); err != nil {
				return "", err
			}
		}
	}
	if alias, ok := c.t.aliases[p.steps[0].name]; ok && len(prefix) == 0 && !p.steps[0].attr && len(p.steps) > 1 {
		var head []step
		for _, n := range strings.Split(alias, "/") {
			head = append(head, step{name: n})
		}
		head[len(head)-1].preds = p.steps[0].preds
		p.steps = append(head, p.steps[1:]...)
	}
	if c.keys != nil {
		c.keys[strings.Join(pathSteps(p, prefix, len(p.steps)), "/")] = true
	}
	return strings.Join(steps, "/"), nil
}

// tokenName is what OBS's parser calls e.
func tokenName(e expr) string {
	switch e := e.(type) {
	case binary:
		return ":" + opNames[e.op]
	case call:
		return ":function"
	case literal, number:
		return ":literal"
	}
	return ":child"
}

// render writes e as the XPath antchfx evaluates (see the package comment for the rewrites).
func render(b *strings.Builder, e expr) {
	switch e := e.(type) {
	case binary:
		b.WriteString("(")
		renderOperand(b, e.l, e.op)
		b.WriteString(" " + e.op + " ")
		render(b, e.r)
		b.WriteString(")")
	case literal:
		quote(b, e.value)
	case number:
		b.WriteString(e.text)
	case *path:
		renderPath(b, e, nil)
	case call:
		switch e.name {
		case "contains", "starts-with", "ends-with":
			renderMatch(b, e)
		default:
			b.WriteString(e.name + "(")
			render(b, e.args[0])
			b.WriteString(")")
		}
	}
}

// renderOperand writes the left operand of op: a chain of the same and/or without the
// parentheses around each link, so that antchfx's recursive parser meets `a or b or c` and not
// `((a or b) or c)`.
func renderOperand(b *strings.Builder, e expr, op string) {
	l, ok := e.(binary)
	if !ok || l.op != op || op != "and" && op != "or" {
		render(b, e)
		return
	}
	renderOperand(b, l.l, op)
	b.WriteString(" " + op + " ")
	render(b, l.r)
}

// renderPath writes p; extra, if any, is a further predicate on its last step.
func renderPath(b *strings.Builder, p *path, extra func()) {
	for i, s := range p.steps {
		if i > 0 {
			b.WriteString("/")
		}
		if s.attr {
			b.WriteString("@")
		}
		b.WriteString(s.name)
		for _, pr := range s.preds {
			b.WriteString("[")
			render(b, pr)
			b.WriteString("]")
		}
		if extra != nil && i == len(p.steps)-1 {
			b.WriteString("[")
			extra()
			b.WriteString("]")
		}
	}
}

// renderMatch writes contains, starts-with or ends-with ignoring case, as OBS's LOWER … LIKE
// does; on a path, as a predicate on its nodes, so that any of them may hold it.
func renderMatch(b *strings.Builder, e call) {
	needle := func() {
		switch n := e.args[1].(type) {
		case literal:
			quote(b, strings.ToLower(n.value))
		case number:
			quote(b, n.text)
		default:
			b.WriteString("lower-case(")
			render(b, n)
			b.WriteString(")")
		}
	}
	hay, isPath := e.args[0].(*path)
	_, isPathNeedle := e.args[1].(*path)
	if isPath && !isPathNeedle {
		renderPath(b, hay, func() {
			b.WriteString(e.name + "(lower-case(.), ")
			needle()
			b.WriteString(")")
		})
		return
	}
	b.WriteString(e.name + "(lower-case(")
	render(b, e.args[0])
	b.WriteString("), ")
	needle()
	b.WriteString(")")
}

// quote writes s as an XPath string literal; a literal read from a predicate never holds both
// quote characters.
func quote(b *strings.Builder, s string) {
	q := "'"
	if strings.Contains(s, "'") {
		q = `"`
	}
	b.WriteString(q + s + q)
}
