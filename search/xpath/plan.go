package xpath

import "strings"

// Eq is an equality on a document: the path Key (its steps joined with slashes, as the
// document has it: a request's `target/@project` is `action/target/@project`) has the value
// Value — ignoring case when Fold is set (the key compares so and Value has letters), so a
// store keeping the values as they are written must look for every case of Value.
type Eq struct {
	Key, Value string
	Fold       bool
}

// maxTerms bounds the terms Plan derives from an `or` (each side's terms pair up).
const maxTerms = 32

// maxTermEqs bounds the equalities of one term: an `or` of many equalities is a long term, and a
// term no index narrows much is not worth its copies.
const maxTermEqs = 64

// Plan lists what every matching document has, for a store to read candidates from its
// indexes instead of scanning: each term is a disjunction, a document matches only if it has
// one of the term's equalities, and every term holds. A caller takes the terms whose keys it
// indexes (the union of one term's entries, intersected across terms) and still evaluates
// Match on each candidate; with no term it can use, it scans. Only string literals are
// taken, compared as Match compares them (Eq.Fold).
func (q *Query) Plan() [][]Eq {
	if q.tree == nil {
		return nil
	}
	return planner(q.t).implied(q.tree, nil)
}

// planner derives a predicate's terms for its table (which keys compare ignoring case).
type planner table

// implied derives the terms e implies, nested in the steps of prefix.
func (pl planner) implied(e expr, prefix []string) [][]Eq {
	switch e := e.(type) {
	case binary:
		switch e.op {
		case "and":
			return append(pl.implied(e.l, prefix), pl.implied(e.r, prefix)...)
		case "or":
			var out [][]Eq
			for _, l := range pl.implied(e.l, prefix) {
				for _, r := range pl.implied(e.r, prefix) {
					if len(out) == maxTerms {
						return out
					}
					if len(l)+len(r) > maxTermEqs {
						continue // leaving a term out only narrows less
					}
					out = append(out, append(append([]Eq(nil), l...), r...))
				}
			}
			return out
		case "=":
			out := append(pl.pathTerms(e.l, prefix), pl.pathTerms(e.r, prefix)...)
			if eq, ok := pl.equality(e.l, e.r, prefix); ok {
				out = append(out, []Eq{eq})
			} else if eq, ok := pl.equality(e.r, e.l, prefix); ok {
				out = append(out, []Eq{eq})
			}
			return out
		}
		return append(pl.pathTerms(e.l, prefix), pl.pathTerms(e.r, prefix)...)
	case *path:
		return pl.pathTerms(e, prefix)
	}
	return nil
}

// equality is `path = 'literal'` as an Eq.
func (pl planner) equality(l, r expr, prefix []string) (Eq, bool) {
	p, ok := l.(*path)
	lit, isLit := r.(literal)
	if !ok || !isLit {
		return Eq{}, false
	}
	key := strings.Join(pathSteps(p, prefix, len(p.steps)), "/")
	if pl.lower[key] {
		return Eq{Key: key, Value: strings.ToLower(lit.value)}, true
	}
	return Eq{Key: key, Value: lit.value, Fold: pl.fold[key] && hasCase(lit.value)}, true
}

// pathTerms are the terms the predicates along a path imply (a step's predicate holds on some
// node at that step).
func (pl planner) pathTerms(e expr, prefix []string) [][]Eq {
	p, ok := e.(*path)
	if !ok {
		return nil
	}
	var out [][]Eq
	for i, s := range p.steps {
		for _, pr := range s.preds {
			out = append(out, pl.implied(pr, pathSteps(p, prefix, i+1))...)
		}
	}
	return out
}

// pathSteps are prefix and the first n steps of p, attributes with their @.
func pathSteps(p *path, prefix []string, n int) []string {
	out := append([]string(nil), prefix...)
	for _, s := range p.steps[:n] {
		if s.attr {
			out = append(out, "@"+s.name)
		} else {
			out = append(out, s.name)
		}
	}
	return out
}

// Prefix says what every matching document's value at the root attribute key starts with,
// when the predicate is an `and` one of whose operands is `starts-with(key, 'literal')` or
// `key = 'literal'`: a store that keeps its records by that value reads only the keys that
// start so. ok is false when there is no such operand, the literal is empty, or the key
// compares ignoring case (no one prefix then).
func (q *Query) Prefix(key string) (prefix string, ok bool) {
	if q.tree == nil || q.t.fold[key] {
		return "", false
	}
	var found func(e expr) bool
	found = func(e expr) bool {
		switch e := e.(type) {
		case binary:
			if e.op == "and" {
				return found(e.l) || found(e.r)
			}
			if e.op == "=" {
				if v, ok := attrLiteral(e.l, e.r, key); ok {
					prefix = v
					return true
				}
				if v, ok := attrLiteral(e.r, e.l, key); ok {
					prefix = v
					return true
				}
			}
		case call:
			if e.name == "starts-with" {
				if v, ok := attrLiteral(e.args[0], e.args[1], key); ok {
					prefix = v
					return true
				}
			}
		}
		return false
	}
	return prefix, found(q.tree) && prefix != ""
}

// attrLiteral is the literal of `@attr <op> 'literal'` when p is the root attribute key.
func attrLiteral(p, lit expr, key string) (string, bool) {
	a, ok := p.(*path)
	l, isLit := lit.(literal)
	if !ok || !isLit || len(a.steps) != 1 || !a.steps[0].attr || len(a.steps[0].preds) > 0 || "@"+a.steps[0].name != key {
		return "", false
	}
	return l.value, true
}
