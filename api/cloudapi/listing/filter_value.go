package listing

import (
	"cmp"
	"math"
	"reflect"
	"strconv"
	"time"
)

// kind is the type of a field value, in the order Apply sorts mixed kinds: null first, then
// booleans, numbers, strings, times, and values of unsupported types last.
type kind uint8

const (
	kNull kind = iota
	kBool
	kNum
	kStr
	kTime
	kOther
)

// num is a number kept exactly where it can be: an int64, a uint64 above MaxInt64, or a float.
type num struct {
	k numKind
	i int64
	u uint64
	f float64
}

type numKind uint8

const (
	nInt numKind = iota
	nUint
	nFloat
)

// value is a normalized field value or operand. It is a plain struct so Match can build one on
// the stack for every item without allocating.
type value struct {
	kind kind
	b    bool
	s    string
	n    num
	sec  int64 // a time, in Unix seconds (also set for a timestamp string operand)
	nsec int32 // a time's fraction, used only to order
	ts   bool  // a string operand that is a timestamp in the cloud layout
}

// timeLayout is the only time format of the cloud API: UTC, no zone, no fraction.
const timeLayout = "2006-01-02T15:04:05"

var timeType = reflect.TypeFor[time.Time]()

// intNum and uintNum build integers, keeping nUint only for values above MaxInt64 so cmpNum
// can rely on it.
func intNum(i int64) num { return num{k: nInt, i: i} }

func uintNum(u uint64) num {
	if u <= math.MaxInt64 {
		return num{k: nInt, i: int64(u)}
	}
	return num{k: nUint, u: u}
}

func (n num) float() float64 {
	switch n.k {
	case nInt:
		return float64(n.i)
	case nUint:
		return float64(n.u)
	}
	return n.f
}

// cmpNum compares two numbers numerically whatever their representation: exactly between
// integers, as float64 as soon as one side is a float.
func cmpNum(a, b num) int {
	switch {
	case a.k == nFloat || b.k == nFloat:
		return cmp.Compare(a.float(), b.float())
	case a.k == nUint && b.k == nUint:
		return cmp.Compare(a.u, b.u)
	case a.k == nUint:
		return 1
	case b.k == nUint:
		return -1
	}
	return cmp.Compare(a.i, b.i)
}

// parseNum reads a JSON number literal: an int64, a uint64, or a float (±Inf when it overflows,
// which still compares correctly).
func parseNum(s string) num {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return intNum(i)
	}
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return uintNum(u)
	}
	f, _ := strconv.ParseFloat(s, 64)
	return num{k: nFloat, f: f}
}

func timeValue(t time.Time) value {
	return value{kind: kTime, sec: t.Unix(), nsec: int32(t.Nanosecond())}
}

// normalize turns what an accessor returned into a value. The common types take a type switch;
// named types (type Status string), pointers and interfaces go through reflect. A nil of any
// kind is null.
func normalize(v any) value {
	switch x := v.(type) {
	case nil:
		return value{kind: kNull}
	case string:
		return value{kind: kStr, s: x}
	case bool:
		return value{kind: kBool, b: x}
	case int:
		return value{kind: kNum, n: intNum(int64(x))}
	case int64:
		return value{kind: kNum, n: intNum(x)}
	case int32:
		return value{kind: kNum, n: intNum(int64(x))}
	case uint64:
		return value{kind: kNum, n: uintNum(x)}
	case float64:
		return value{kind: kNum, n: num{k: nFloat, f: x}}
	case time.Time:
		return timeValue(x)
	case *time.Time:
		if x == nil {
			return value{kind: kNull}
		}
		return timeValue(*x)
	}
	return normalizeReflect(reflect.ValueOf(v))
}

func normalizeReflect(rv reflect.Value) value {
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return value{kind: kNull}
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.String:
		return value{kind: kStr, s: rv.String()}
	case reflect.Bool:
		return value{kind: kBool, b: rv.Bool()}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return value{kind: kNum, n: intNum(rv.Int())}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return value{kind: kNum, n: uintNum(rv.Uint())}
	case reflect.Float32, reflect.Float64:
		return value{kind: kNum, n: num{k: nFloat, f: rv.Float()}}
	case reflect.Struct:
		if rv.Type().ConvertibleTo(timeType) {
			return timeValue(rv.Convert(timeType).Interface().(time.Time))
		}
	}
	return value{kind: kOther}
}

// operand builds the value of a scalar JSON operand. A string in the cloud time layout also
// carries its time, so it can match a time.Time field.
func operand(v jval) value {
	switch v.kind {
	case jBool:
		return value{kind: kBool, b: v.b}
	case jNum:
		return value{kind: kNum, n: parseNum(v.s)}
	case jStr:
		op := value{kind: kStr, s: v.s}
		if t, err := time.Parse(timeLayout, v.s); err == nil {
			op.sec, op.ts = t.Unix(), true
		}
		return op
	}
	return value{kind: kNull}
}

// compareValues orders two field values naturally for +order_by: by kind first (null first),
// then strings lexicographically, numbers numerically, times chronologically, false before true.
func compareValues(a, b *value) int {
	if a.kind != b.kind {
		return cmp.Compare(a.kind, b.kind)
	}
	switch a.kind {
	case kBool:
		return cmp.Compare(b2i(a.b), b2i(b.b))
	case kNum:
		return cmpNum(a.n, b.n)
	case kStr:
		return cmp.Compare(a.s, b.s)
	case kTime:
		if c := cmp.Compare(a.sec, b.sec); c != 0 {
			return c
		}
		return cmp.Compare(a.nsec, b.nsec)
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
