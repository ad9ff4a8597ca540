package listing

import (
	"net/http"
	"strings"

	"github.com/pocketforge/pocketforge/api/kit"
)

// filterField is the Field of every X-Filter error, as the real API reports it.
const filterField = "X-Filter"

// fieldOps are the operators that apply to one field's value, inside {"field":{…}}.
var fieldOps = map[string]testOp{
	"+gt": tGt, "+gte": tGte, "+lt": tLt, "+lte": tLte,
	"+contains": tContains, "+neq": tNeq, "+or": tOr, "+and": tAnd,
}

// isFieldOp reports whether key is an operator that belongs inside a field's object.
func isFieldOp(key string) bool {
	_, ok := fieldOps[key]
	return ok
}

// filterError is a 400 about the X-Filter header.
func filterError(format string, args ...any) *kit.Error {
	e := kit.Errorf(http.StatusBadRequest, format, args...)
	e.Field = filterField
	return e
}

// ParseFilter compiles the X-Filter header value against a resource's Fields, once per request,
// so that matching does no parsing. An empty (or all-whitespace) header matches everything and
// keeps the input order.
//
// The header is a JSON object. Its keys are declared fields, +and/+or (arrays of filter objects),
// and, at the top level only, +order_by (a declared field) and +order ("asc" or "desc", default
// asc; alone, without +order_by, it leaves the default order). Keys of one object are ANDed. A field's value is a plain value
// (equality) or an object of operators, ANDed: +gt/+gte/+lt/+lte (a number, or a
// "2006-01-02T15:04:05" timestamp), +contains (a string, matched case-insensitively), +neq (any
// plain value, null included: +neq null means "is set"; it is the negation of equality, so a
// value of another type is not equal) and +and/+or (arrays of plain values
// or operator objects). An empty operator object or +and array matches everything, an empty
// +or array nothing. Type mismatches between a field and a value do not match; a wrong operand
// type is a 400, as in the real API. Every error is a 400 *kit.Error with Field "X-Filter",
// naming the first problem in document order.
func ParseFilter[T any](header string, fields Fields[T]) (*Filter[T], error) {
	f := &Filter[T]{}
	if strings.TrimSpace(header) == "" {
		return f, nil
	}
	v, ok := decodeJSON(header)
	if !ok {
		return nil, filterError("The filter is not valid JSON")
	}
	if v.kind != jObj {
		return nil, filterError("The filter must be a JSON object")
	}
	c := compiler[T]{fields: fields, f: f}
	root, err := c.object(v.obj, true)
	if err != nil {
		return nil, err
	}
	// A lone +order leaves the default order: the real service accepts it (the Terraform
	// provider's list data sources send {"+and":[],"+order":"desc"}), and only a value other
	// than asc or desc is refused (issue 33).
	f.root = root
	return f, nil
}

// compiler turns the decoded header into nodes; it records +order_by/+order on f.
type compiler[T any] struct {
	fields    Fields[T]
	f         *Filter[T]
	orderSeen bool
}

// object compiles one filter object: its keys ANDed.
func (c *compiler[T]) object(members []jmember, top bool) (node[T], error) {
	n := node[T]{kind: nodeAnd}
	for _, m := range members {
		var kid node[T]
		var err error
		switch get, ok := c.fields[m.key]; {
		case ok && get != nil:
			kid, err = c.field(m.key, get, m.val)
		case m.key == "+and" || m.key == "+or":
			kid, err = c.group(m)
		case m.key == "+order_by" || m.key == "+order":
			if !top {
				return n, filterError("%s is only allowed at the top level", m.key)
			}
			if err := c.order(m); err != nil {
				return n, err
			}
			continue
		case isFieldOp(m.key):
			return n, filterError("%s must be applied to a field, as in {\"field\":{\"%s\":…}}", m.key, m.key)
		case strings.HasPrefix(m.key, "+"):
			return n, filterError("Unknown filter operator %s", m.key)
		default:
			return n, filterError("Cannot filter on %s", m.key)
		}
		if err != nil {
			return n, err
		}
		n.kids = append(n.kids, kid)
	}
	if len(n.kids) == 1 {
		return n.kids[0], nil
	}
	return n, nil
}

// group compiles a +and or +or array of filter objects.
func (c *compiler[T]) group(m jmember) (node[T], error) {
	n := node[T]{kind: nodeAnd}
	if m.key == "+or" {
		n.kind = nodeOr
	}
	if m.val.kind != jArr {
		return n, filterError("%s must be an array of filter objects", m.key)
	}
	for _, el := range m.val.arr {
		if el.kind != jObj {
			return n, filterError("%s must be an array of filter objects", m.key)
		}
		kid, err := c.object(el.obj, false)
		if err != nil {
			return n, err
		}
		n.kids = append(n.kids, kid)
	}
	return n, nil
}

// order records +order_by or +order.
func (c *compiler[T]) order(m jmember) error {
	if m.key == "+order" {
		if c.orderSeen {
			return filterError("+order is given more than once")
		}
		c.orderSeen = true
		if m.val.kind != jStr || (m.val.s != "asc" && m.val.s != "desc") {
			return filterError("+order must be asc or desc")
		}
		c.f.desc = m.val.s == "desc"
		return nil
	}
	if c.f.orderBy != nil {
		return filterError("+order_by is given more than once")
	}
	if m.val.kind != jStr {
		return filterError("+order_by must be the name of a field")
	}
	get, ok := c.fields[m.val.s]
	if !ok || get == nil {
		return filterError("Cannot filter on %s", m.val.s)
	}
	c.f.orderBy = get
	return nil
}

// field compiles {"name": value}: a plain value is equality, an object holds operators.
func (c *compiler[T]) field(name string, get func(T) any, v jval) (node[T], error) {
	n := node[T]{kind: nodeField, get: get}
	switch v.kind {
	case jArr:
		return n, filterError("The filter on %s must be a string, number, boolean, null or an object of operators", name)
	case jObj:
		t, err := c.ops(name, v.obj)
		n.test = t
		return n, err
	}
	n.test = test{op: tEq, arg: operand(v)}
	return n, nil
}

// ops compiles an object of operators on one field, ANDed.
func (c *compiler[T]) ops(name string, members []jmember) (test, error) {
	t := test{op: tAnd}
	for _, m := range members {
		kid, err := c.op(name, m)
		if err != nil {
			return t, err
		}
		t.kids = append(t.kids, kid)
	}
	if len(t.kids) == 1 {
		return t.kids[0], nil
	}
	return t, nil
}
