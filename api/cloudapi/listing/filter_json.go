package listing

import (
	"encoding/json"
	"errors"
	"strings"
)

// errNotJSON stops decoding on a token the decoder should never yield after json.Valid.
var errNotJSON = errors.New("listing: unexpected JSON token")

// jkind is the JSON type of a decoded X-Filter value.
type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNum
	jStr
	jArr
	jObj
)

// jval is one decoded JSON value. Objects keep their members in document order, so the first
// problem in the header is the one reported, every time (a Go map would pick one at random).
type jval struct {
	kind jkind
	b    bool
	s    string // a string, or a number's literal text
	arr  []jval
	obj  []jmember
}

// jmember is one key of a JSON object.
type jmember struct {
	key string
	val jval
}

// decodeJSON decodes the header into an ordered tree. json.Valid checks it first: it refuses
// nesting deeper than encoding/json's limit (10000), which bounds the recursion below and in
// the compiler, so a hostile header cannot exhaust the stack.
func decodeJSON(header string) (jval, bool) {
	if !json.Valid([]byte(header)) {
		return jval{}, false
	}
	dec := json.NewDecoder(strings.NewReader(header))
	dec.UseNumber()
	v, err := readValue(dec)
	return v, err == nil
}

// readValue reads one value from dec, recursively.
func readValue(dec *json.Decoder) (jval, error) {
	tok, err := dec.Token()
	if err != nil {
		return jval{}, err
	}
	switch t := tok.(type) {
	case nil:
		return jval{kind: jNull}, nil
	case bool:
		return jval{kind: jBool, b: t}, nil
	case json.Number:
		return jval{kind: jNum, s: string(t)}, nil
	case string:
		return jval{kind: jStr, s: t}, nil
	case json.Delim:
		if t == '[' {
			return readArray(dec)
		}
		return readObject(dec)
	}
	return jval{}, errNotJSON
}

func readArray(dec *json.Decoder) (jval, error) {
	v := jval{kind: jArr}
	for dec.More() {
		e, err := readValue(dec)
		if err != nil {
			return jval{}, err
		}
		v.arr = append(v.arr, e)
	}
	_, err := dec.Token() // ']'
	return v, err
}

func readObject(dec *json.Decoder) (jval, error) {
	v := jval{kind: jObj}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return jval{}, err
		}
		key, _ := tok.(string)
		e, err := readValue(dec)
		if err != nil {
			return jval{}, err
		}
		v.obj = append(v.obj, jmember{key: key, val: e})
	}
	_, err := dec.Token() // '}'
	return v, err
}
