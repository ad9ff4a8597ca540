package listing

// op compiles one operator applied to field name, checking its operand's type.
func (c *compiler[T]) op(name string, m jmember) (test, error) {
	op, known := fieldOps[m.key]
	v := m.val
	switch {
	case !known && (m.key == "+order_by" || m.key == "+order"):
		return test{}, filterError("%s is only allowed at the top level", m.key)
	case !known:
		return test{}, filterError("Unknown filter operator %s", m.key)
	case op == tAnd || op == tOr:
		return c.valueGroup(name, op, m)
	case op == tContains:
		if v.kind != jStr {
			return test{}, filterError("+contains on %s must be a string", name)
		}
		return test{op: op, arg: value{kind: kStr, s: v.s}}, nil
	case op == tNeq:
		if v.kind == jArr || v.kind == jObj {
			return test{}, filterError("+neq on %s must be a string, number, boolean or null", name)
		}
		return test{op: op, arg: operand(v)}, nil
	}
	arg := operand(v) // +gt, +gte, +lt, +lte
	if arg.kind != kNum && !arg.ts {
		return test{}, filterError("%s on %s must be a number or a timestamp (YYYY-MM-DDTHH:MM:SS)", m.key, name)
	}
	return test{op: op, arg: arg}, nil
}

// valueGroup compiles +and/+or inside a field: an array of plain values (equality) and operator
// objects, e.g. {"when":{"+or":["2022-01-01T00:00:00",{"+gte":"2023-01-01T00:00:00"}]}}.
func (c *compiler[T]) valueGroup(name string, op testOp, m jmember) (test, error) {
	if m.val.kind != jArr {
		return test{}, filterError("%s on %s must be an array of values or operator objects", m.key, name)
	}
	t := test{op: op, kids: make([]test, 0, len(m.val.arr))}
	for _, el := range m.val.arr {
		switch el.kind {
		case jArr:
			return test{}, filterError("%s on %s must be an array of values or operator objects", m.key, name)
		case jObj:
			kid, err := c.ops(name, el.obj)
			if err != nil {
				return test{}, err
			}
			t.kids = append(t.kids, kid)
		default:
			t.kids = append(t.kids, test{op: tEq, arg: operand(el)})
		}
	}
	return t, nil
}
