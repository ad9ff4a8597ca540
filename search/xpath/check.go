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

// renderer writes a checked predicate as the XPath antchfx evaluates (see the package comment
// for the rewrites). fold holds the keys whose values compare ignoring case, lower those of
// them whose values are all in lower case (table).
type renderer struct {
	b           *strings.Builder
	fold, lower map[string]bool
}

// expr writes e, nested in the steps of prefix.
func (r renderer) expr(e expr, prefix []string) {
	b := r.b
	switch e := e.(type) {
	case binary:
		if r.foldedComparison(e, prefix) {
			return
		}
		b.WriteString("(")
		r.operand(e.l, e.op, prefix)
		b.WriteString(" " + e.op + " ")
		r.expr(e.r, prefix)
		b.WriteString(")")
	case literal:
		quote(b, e.value)
	case number:
		b.WriteString(e.text)
	case *path:
		r.path(e, prefix, nil)
	case call:
		switch e.name {
		case "contains", "starts-with", "ends-with":
			r.match(e, prefix)
		default:
			b.WriteString(e.name + "(")
			r.expr(e.args[0], prefix)
			b.WriteString(")")
		}
	}
}

// operand writes the left operand of op: a chain of the same and/or without the parentheses
// around each link, so that antchfx's recursive parser meets `a or b or c` and not
// `((a or b) or c)`.
func (r renderer) operand(e expr, op string, prefix []string) {
	l, ok := e.(binary)
	if !ok || l.op != op || op != "and" && op != "or" {
		r.expr(e, prefix)
		return
	}
	r.operand(l.l, op, prefix)
	r.b.WriteString(" " + op + " ")
	r.expr(l.r, prefix)
}

// path writes p; extra, if any, is a further predicate on its last step.
func (r renderer) path(p *path, prefix []string, extra func()) {
	b := r.b
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
			r.expr(pr, pathSteps(p, prefix, i+1))
			b.WriteString("]")
		}
		if extra != nil && i == len(p.steps)-1 {
			b.WriteString("[")
			extra()
			b.WriteString("]")
		}
	}
}

// folded reports whether the values at p compare ignoring case, and whether they are all in
// lower case already.
func (r renderer) folded(p *path, prefix []string) (fold, lower bool) {
	key := strings.Join(pathSteps(p, prefix, len(p.steps)), "/")
	return r.fold[key], r.lower[key]
}

// foldedComparison writes `path = 'literal'` or `!=` on a key whose column OBS's database
// compares ignoring case as `path[lower-case(.) = 'literal in lower case']` (any of the nodes
// may hold it, as with =), or as `path = 'literal in lower case'` when its values are in lower
// case, and reports whether it did.
func (r renderer) foldedComparison(e binary, prefix []string) bool {
	if e.op != "=" && e.op != "!=" {
		return false
	}
	p, isPath := e.l.(*path)
	lit, isLit := e.r.(literal)
	if !isPath || !isLit {
		p, isPath = e.r.(*path)
		lit, isLit = e.l.(literal)
	}
	if !isPath || !isLit || !hasCase(lit.value) {
		return false
	}
	fold, lower := r.folded(p, prefix)
	switch {
	case !fold:
		return false
	case lower:
		r.b.WriteString("(")
		r.path(p, prefix, nil)
		r.b.WriteString(" " + e.op + " ")
		quote(r.b, strings.ToLower(lit.value))
		r.b.WriteString(")")
		return true
	}
	r.path(p, prefix, func() {
		r.b.WriteString("lower-case(.) " + e.op + " ")
		quote(r.b, strings.ToLower(lit.value))
	})
	return true
}

// hasCase reports whether s has a letter lower-case would change or one it would have changed.
func hasCase(s string) bool { return strings.ToLower(s) != strings.ToUpper(s) }

// match writes contains, starts-with or ends-with. contains ignores case everywhere, as OBS's
// LOWER … LIKE does; starts-with and ends-with are a plain LIKE in OBS, which ignores case as
// the column's collation does (fold). On a path, the test is a predicate on its nodes, so that
// any of them may hold it.
func (r renderer) match(e call, prefix []string) {
	b := r.b
	hay, isPath := e.args[0].(*path)
	_, isPathNeedle := e.args[1].(*path)
	fold, lower := e.name == "contains" || !isPath, false
	if !fold {
		fold, lower = r.folded(hay, prefix)
	}
	needle := func() {
		switch n := e.args[1].(type) {
		case literal:
			if fold || lower {
				quote(b, strings.ToLower(n.value))
			} else {
				quote(b, n.value)
			}
		case number:
			quote(b, n.text)
		default:
			if fold {
				b.WriteString("lower-case(")
			}
			r.expr(n, prefix)
			if fold {
				b.WriteString(")")
			}
		}
	}
	if lower {
		fold = false // the values are in lower case: only the literal needs lowering
	}
	if isPath && !isPathNeedle {
		r.path(hay, prefix, func() {
			if fold {
				b.WriteString(e.name + "(lower-case(.), ")
			} else {
				b.WriteString(e.name + "(., ")
			}
			needle()
			b.WriteString(")")
		})
		return
	}
	b.WriteString(e.name + "(")
	if fold {
		b.WriteString("lower-case(")
	}
	r.expr(e.args[0], prefix)
	if fold {
		b.WriteString(")")
	}
	b.WriteString(", ")
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
