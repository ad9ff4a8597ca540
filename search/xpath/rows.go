package xpath

// OBS's per-row rule. OBS maps each path of a predicate to a joined table, one row per element
// (a request's action, a package's person), and every condition on the same path reads the
// same row: `person/@userid='u' and person/@role='maintainer'` wants one person entry with
// both, where XPath on the document is satisfied by two different entries. pairRows rewrites
// the operands of an `and` that all read one repeated element into one predicate on it —
// `person[@userid='u' and @role='maintainer']` — so antchfx evaluates what OBS's SQL selects.
// An operand joins its element's group when every path in it starts with that element (and
// the element's step carries no predicate of its own), or when it is the element itself with
// predicates (`review[@by_user='u']`). Operands under not() are left apart: "no person is u"
// is not "some person is not u".

// pairRows applies the rule to e and everything nested in it.
func pairRows(e expr) expr {
	b, ok := e.(binary)
	if !ok {
		return e
	}
	switch b.op {
	case "or":
		return binary{"or", pairRows(b.l), pairRows(b.r)}
	case "and":
	default:
		return e
	}
	var operands []expr
	for _, o := range andOperands(b) {
		operands = append(operands, pairRows(o))
	}
	groups := map[string][]int{}
	var order []string
	for i, o := range operands {
		if h := rowHead(o); h != "" {
			if len(groups[h]) == 0 {
				order = append(order, h)
			}
			groups[h] = append(groups[h], i)
		}
	}
	merged := map[int]expr{}
	dropped := map[int]bool{}
	for _, h := range order {
		idx := groups[h]
		if len(idx) < 2 {
			continue
		}
		var inner expr
		for _, i := range idx {
			inner = andOf(inner, stripHead(operands[i]))
		}
		merged[idx[0]] = &path{steps: []step{{name: h, preds: []expr{inner}}}}
		for _, i := range idx[1:] {
			dropped[i] = true
		}
	}
	var out expr
	for i, o := range operands {
		if dropped[i] {
			continue
		}
		if m, ok := merged[i]; ok {
			o = m
		}
		out = andOf(out, o)
	}
	return out
}

// andOperands flattens an and-chain.
func andOperands(e expr) []expr {
	if b, ok := e.(binary); ok && b.op == "and" {
		return append(andOperands(b.l), andOperands(b.r)...)
	}
	return []expr{e}
}

// andOf joins l and r with and (l nil: r alone).
func andOf(l, r expr) expr {
	if l == nil {
		return r
	}
	return binary{"and", l, r}
}

// rowHead is the element every path of operand e starts with, "" when there is none (or e has
// no path, or a not()).
func rowHead(e expr) string {
	if p, ok := e.(*path); ok && len(p.steps) == 1 && !p.steps[0].attr && p.steps[0].name != "*" && len(p.steps[0].preds) > 0 {
		return p.steps[0].name
	}
	head, ok := "", true
	walkPaths(e, func(p *path) {
		if len(p.steps) < 2 || p.steps[0].attr || p.steps[0].name == "*" || len(p.steps[0].preds) > 0 {
			ok = false
			return
		}
		if head == "" {
			head = p.steps[0].name
		} else if head != p.steps[0].name {
			ok = false
		}
	}, &ok)
	if !ok {
		return ""
	}
	return head
}

// walkPaths calls fn with every path of e outside predicates; a not() sets *ok false.
func walkPaths(e expr, fn func(*path), ok *bool) {
	switch e := e.(type) {
	case binary:
		walkPaths(e.l, fn, ok)
		walkPaths(e.r, fn, ok)
	case call:
		if e.name == "not" {
			*ok = false
			return
		}
		for _, a := range e.args {
			walkPaths(a, fn, ok)
		}
	case *path:
		fn(e)
	}
}

// stripHead is operand e read from inside its head element: every path loses its first step
// (the head itself with predicates becomes its predicates).
func stripHead(e expr) expr {
	switch e := e.(type) {
	case binary:
		return binary{e.op, stripHead(e.l), stripHead(e.r)}
	case call:
		args := make([]expr, len(e.args))
		for i, a := range e.args {
			args[i] = stripHead(a)
		}
		return call{e.name, args}
	case *path:
		if len(e.steps) == 1 {
			var inner expr
			for _, pr := range e.steps[0].preds {
				inner = andOf(inner, pr)
			}
			return inner
		}
		return &path{steps: e.steps[1:]}
	}
	return e
}
