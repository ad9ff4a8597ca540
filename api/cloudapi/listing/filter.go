package listing

import "slices"

// Fields declares a resource's filterable fields — name (dotted for nested, e.g. "entity.id") to
// accessor — so the one X-Filter implementation can serve every resource. An accessor returns a
// string, bool, nil, a number (int, int64, uint64, float64 …), a time.Time, or a named or pointer
// type of those kinds (a nil pointer is null). Only declared fields may be filtered or ordered on.
type Fields[T any] map[string]func(T) any

// Filter is a compiled X-Filter header: every operand is parsed and every field resolved by
// ParseFilter, so Match only calls accessors and compares. A nil *Filter matches everything.
type Filter[T any] struct {
	root    node[T]
	orderBy func(T) any // nil: keep the input order
	desc    bool
}

// nodeKind is the kind of a compiled filter object.
type nodeKind uint8

const (
	nodeAnd   nodeKind = iota // all kids (an object's keys, +and); no kids matches everything
	nodeOr                    // at least one kid (+or); no kids matches nothing
	nodeField                 // one field's test
)

// node is one compiled filter object or field condition.
type node[T any] struct {
	kind nodeKind
	kids []node[T]
	get  func(T) any
	test test
}

func (n *node[T]) eval(item T) bool {
	switch n.kind {
	case nodeAnd:
		for i := range n.kids {
			if !n.kids[i].eval(item) {
				return false
			}
		}
		return true
	case nodeOr:
		for i := range n.kids {
			if n.kids[i].eval(item) {
				return true
			}
		}
		return false
	}
	v := normalize(n.get(item))
	return n.test.eval(&v)
}

// Match reports whether item satisfies the filter, so a caller that streams items (or counts
// them) need not build a slice.
func (f *Filter[T]) Match(item T) bool {
	return f == nil || f.root.eval(item)
}

// Trivial reports whether the filter neither tests nor orders (no X-Filter, "{}"): the list is
// then its input, unchanged, and a caller may page it without loading what the page does not show.
func (f *Filter[T]) Trivial() bool {
	return f == nil || f.orderBy == nil && f.root.kind == nodeAnd && len(f.root.kids) == 0
}

// Apply returns the items that match, sorted by +order_by/+order when the filter names them
// (a stable sort: equal keys keep their input order; without +order_by the input order is kept).
// It never modifies items, which may be shared with a cache; without a condition or an order it
// returns items itself rather than a copy.
func (f *Filter[T]) Apply(items []T) []T {
	if f.Trivial() {
		return items // no condition, no order: nothing to copy (the input is not modified)
	}
	out := make([]T, 0, len(items))
	for _, it := range items {
		if f.Match(it) {
			out = append(out, it)
		}
	}
	if f == nil || f.orderBy == nil || len(out) < 2 {
		return out
	}
	return f.sort(out)
}

// sort orders out by the +order_by field. Each key is read once (not once per comparison), and
// an index slice is sorted so the comparisons move ints, not items.
func (f *Filter[T]) sort(out []T) []T {
	keys := make([]value, len(out))
	idx := make([]int, len(out))
	for i, it := range out {
		keys[i] = normalize(f.orderBy(it))
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		c := compareValues(&keys[a], &keys[b])
		if f.desc {
			return -c
		}
		return c
	})
	sorted := make([]T, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted
}
