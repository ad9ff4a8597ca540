package listing

import (
	"slices"
	"strings"
	"testing"
)

var all = []int{1, 2, 3, 4, 5}

// filterCase is one X-Filter header and either the ids Apply returns, in order, or the reason of
// the 400 (always with field "X-Filter").
type filterCase struct {
	name, header string
	want         []int
	err          string
}

var filterCases = []filterCase{
	// no filter
	{name: "empty header", header: "", want: all},
	{name: "blank header", header: " \t ", want: all},
	{name: "empty object", header: `{}`, want: all},
	// equality of each kind
	{name: "int equality", header: `{"id":3}`, want: []int{3}},
	{name: "int equals float literal", header: `{"id":3.0}`, want: []int{3}},
	{name: "string equality", header: `{"label":"web-1"}`, want: []int{1}},
	{name: "string equality is case-sensitive", header: `{"label":"WEB-1"}`, want: []int{}},
	{name: "bool true", header: `{"public":true}`, want: []int{1, 3, 5}},
	{name: "bool false", header: `{"public":false}`, want: []int{2, 4}},
	{name: "null matches nil", header: `{"owner":null}`, want: []int{2, 4}},
	{name: "null matches nil pointer", header: `{"owner_ptr":null}`, want: []int{2, 4}},
	{name: "string through pointer", header: `{"owner_ptr":"alice"}`, want: []int{1, 5}},
	{name: "nil field string equality", header: `{"owner":"alice"}`, want: []int{1, 5}},
	{name: "time equality", header: `{"created":"2022-06-15T12:30:00"}`, want: []int{2}},
	{name: "time equality to the second", header: `{"created":"2021-12-31T23:59:59"}`, want: []int{4}},
	{name: "uint64 max equality", header: `{"size":18446744073709551615}`, want: []int{3}},
	{name: "float equality", header: `{"ratio":1.5}`, want: []int{2}},
	{name: "float field equals int literal", header: `{"ratio":2}`, want: []int{3}},
	{name: "named string type", header: `{"state":"running"}`, want: []int{1, 3}},
	{name: "type mismatch does not match", header: `{"id":"3"}`, want: []int{}},
	{name: "bool against string", header: `{"public":"true"}`, want: []int{}},
	// combinations
	{name: "keys are ANDed", header: `{"status":"running","public":true}`, want: []int{1, 3}},
	{name: "duplicate keys are ANDed", header: `{"id":{"+gt":1},"id":{"+lt":3}}`, want: []int{2}},
	{name: "linodego and", header: `{"+and":[{"label":"a"},{"public":true}]}`, want: []int{5}},
	{name: "linodego events", header: `{"action":"x","entity.id":5,"entity.type":"linode"}`, want: []int{5}},
	{name: "top-level or", header: `{"+or":[{"id":1},{"id":4}]}`, want: []int{1, 4}},
	{name: "or element keys ANDed", header: `{"+or":[{"status":"running","public":true},{"id":4}]}`, want: []int{1, 3, 4}},
	{name: "field or plain values", header: `{"status":{"+or":["running","provisioning"]}}`, want: []int{1, 3, 4}},
	{name: "field or mixed", header: `{"created":{"+or":["2022-01-01T00:00:00",{"+gte":"2023-01-01T00:00:00"}]}}`, want: []int{1, 3, 5}},
	{name: "field and", header: `{"id":{"+and":[{"+gt":1},{"+neq":3},{"+lt":5}]}}`, want: []int{2, 4}},
	{name: "and in or in and", header: `{"+and":[{"public":true},{"+or":[{"+and":[{"entity.id":5},{"entity.type":"domain"}]},{"label":"a"}]}]}`, want: []int{3, 5}},
	{name: "empty and", header: `{"+and":[]}`, want: all},
	{name: "empty or", header: `{"+or":[]}`, want: []int{}},
	{name: "empty operator object", header: `{"id":{}}`, want: all},
	// comparisons on numbers
	{name: "gt", header: `{"id":{"+gt":3}}`, want: []int{4, 5}},
	{name: "gte", header: `{"id":{"+gte":3}}`, want: []int{3, 4, 5}},
	{name: "lt", header: `{"id":{"+lt":2}}`, want: []int{1}},
	{name: "lte", header: `{"id":{"+lte":2}}`, want: []int{1, 2}},
	{name: "range", header: `{"id":{"+gte":2,"+lt":4}}`, want: []int{2, 3}},
	{name: "gt float", header: `{"ratio":{"+gt":0.5}}`, want: []int{2, 3}},
	{name: "gt on int field with float", header: `{"id":{"+gt":2.5}}`, want: []int{3, 4, 5}},
	{name: "gt above int64", header: `{"size":{"+gt":9223372036854775807}}`, want: []int{3}},
	{name: "lt negative", header: `{"ratio":{"+lt":0}}`, want: []int{4}},
	{name: "number on time field does not match", header: `{"created":{"+gt":5}}`, want: []int{}},
	// comparisons on timestamps
	{name: "time gt", header: `{"created":{"+gt":"2022-06-15T12:30:00"}}`, want: []int{3, 5}},
	{name: "time gte", header: `{"created":{"+gte":"2022-06-15T12:30:00"}}`, want: []int{2, 3, 5}},
	{name: "time lt", header: `{"created":{"+lt":"2022-01-01T00:00:00"}}`, want: []int{4}},
	{name: "time lte to the second", header: `{"created":{"+lte":"2021-12-31T23:59:59"}}`, want: []int{4}},
	{name: "timestamp on number field does not match", header: `{"id":{"+gt":"2022-01-01T00:00:00"}}`, want: []int{}},
	// contains, neq
	{name: "contains case-insensitive", header: `{"label":{"+contains":"WEB"}}`, want: []int{1, 2}},
	{name: "contains unicode fold", header: `{"label":{"+contains":"üMLAUT"}}`, want: []int{4}},
	{name: "contains empty", header: `{"label":{"+contains":""}}`, want: all},
	{name: "contains on number", header: `{"id":{"+contains":"1"}}`, want: []int{}},
	{name: "contains on nil", header: `{"owner":{"+contains":"a"}}`, want: []int{1, 5}},
	{name: "neq string", header: `{"status":{"+neq":"running"}}`, want: []int{2, 4, 5}},
	{name: "neq number", header: `{"id":{"+neq":1}}`, want: []int{2, 3, 4, 5}},
	{name: "neq bool", header: `{"public":{"+neq":true}}`, want: []int{2, 4}},
	{name: "neq null", header: `{"owner":{"+neq":null}}`, want: []int{1, 3, 5}},
	// ordering
	{name: "order label asc", header: `{"+order_by":"label"}`, want: []int{3, 5, 4, 1, 2}},
	{name: "order label desc", header: `{"+order_by":"label","+order":"desc"}`, want: []int{2, 1, 4, 5, 3}},
	{name: "order id desc", header: `{"+order":"desc","+order_by":"id"}`, want: []int{5, 4, 3, 2, 1}},
	{name: "order created asc", header: `{"+order_by":"created","+order":"asc"}`, want: []int{4, 1, 2, 3, 5}},
	{name: "order created desc", header: `{"+order_by":"created","+order":"desc"}`, want: []int{5, 3, 2, 1, 4}},
	{name: "order nil first and stable", header: `{"+order_by":"owner"}`, want: []int{2, 4, 1, 5, 3}},
	{name: "order nil last when desc, stable", header: `{"+order_by":"owner_ptr","+order":"desc"}`, want: []int{3, 1, 5, 2, 4}},
	{name: "order bool", header: `{"+order_by":"public"}`, want: []int{2, 4, 1, 3, 5}},
	{name: "order uint64", header: `{"+order_by":"size"}`, want: []int{4, 5, 1, 2, 3}},
	{name: "order float", header: `{"+order_by":"ratio","+order":"desc"}`, want: []int{3, 2, 1, 5, 4}},
	{name: "lone order keeps the default order", header: `{"+order":"desc"}`, want: []int{1, 2, 3, 4, 5}},
	{name: "lone order as the Terraform provider sends it", header: `{"+and":[],"+order":"desc"}`, want: []int{1, 2, 3, 4, 5}},
	{name: "filter and order", header: `{"status":"running","+order_by":"id","+order":"desc"}`, want: []int{3, 1}},
	// errors
	{name: "not JSON", header: `status=running`, err: "The filter is not valid JSON"},
	{name: "truncated JSON", header: `{"id":1`, err: "The filter is not valid JSON"},
	{name: "trailing data", header: `{} {}`, err: "The filter is not valid JSON"},
	{name: "array", header: `[{"id":1}]`, err: "The filter must be a JSON object"},
	{name: "string", header: `"id"`, err: "The filter must be a JSON object"},
	{name: "null", header: `null`, err: "The filter must be a JSON object"},
	{name: "unknown field", header: `{"foo":1}`, err: "Cannot filter on foo"},
	{name: "unknown nested field", header: `{"entity":{"id":5}}`, err: "Cannot filter on entity"},
	{name: "unknown field inside and", header: `{"+and":[{"bar":1}]}`, err: "Cannot filter on bar"},
	{name: "first problem wins", header: `{"zzz":1,"aaa":2}`, err: "Cannot filter on zzz"},
	{name: "unknown operator top", header: `{"+eq":1}`, err: "Unknown filter operator +eq"},
	{name: "unknown operator in field", header: `{"label":{"+like":"a"}}`, err: "Unknown filter operator +like"},
	{name: "plain key in field object", header: `{"label":{"x":"a"}}`, err: "Unknown filter operator x"},
	{name: "unknown operator in field or", header: `{"id":{"+or":[{"+foo":1}]}}`, err: "Unknown filter operator +foo"},
	{name: "field operator at top", header: `{"+gt":5}`, err: `+gt must be applied to a field, as in {"field":{"+gt":…}}`},
	{name: "and not array", header: `{"+and":{"id":1}}`, err: "+and must be an array of filter objects"},
	{name: "or element not object", header: `{"+or":[1]}`, err: "+or must be an array of filter objects"},
	{name: "or string", header: `{"+or":"x"}`, err: "+or must be an array of filter objects"},
	{name: "field or not array", header: `{"id":{"+or":1}}`, err: "+or on id must be an array of values or operator objects"},
	{name: "field or nested array", header: `{"id":{"+or":[[1]]}}`, err: "+or on id must be an array of values or operator objects"},
	{name: "field array value", header: `{"id":[1,2]}`, err: "The filter on id must be a string, number, boolean, null or an object of operators"},
	{name: "contains not string", header: `{"label":{"+contains":5}}`, err: "+contains on label must be a string"},
	{name: "gt on non-timestamp string", header: `{"id":{"+gt":"abc"}}`, err: "+gt on id must be a number or a timestamp (YYYY-MM-DDTHH:MM:SS)"},
	{name: "lte bool", header: `{"public":{"+lte":true}}`, err: "+lte on public must be a number or a timestamp (YYYY-MM-DDTHH:MM:SS)"},
	{name: "gt null", header: `{"id":{"+gte":null}}`, err: "+gte on id must be a number or a timestamp (YYYY-MM-DDTHH:MM:SS)"},
	{name: "operator object inside gt", header: `{"id":{"+gt":{"+lt":1}}}`, err: "+gt on id must be a number or a timestamp (YYYY-MM-DDTHH:MM:SS)"},
	{name: "neq array", header: `{"id":{"+neq":[1]}}`, err: "+neq on id must be a string, number, boolean or null"},
	{name: "order bad value", header: `{"+order_by":"id","+order":"up"}`, err: "+order must be asc or desc"},
	{name: "lone order bad value", header: `{"+order":"down"}`, err: "+order must be asc or desc"},
	{name: "order_by unknown field", header: `{"+order_by":"nope"}`, err: "Cannot filter on nope"},
	{name: "order_by not string", header: `{"+order_by":5}`, err: "+order_by must be the name of a field"},
	{name: "order_by twice", header: `{"+order_by":"id","+order_by":"label"}`, err: "+order_by is given more than once"},
	{name: "order twice", header: `{"+order_by":"id","+order":"asc","+order":"desc"}`, err: "+order is given more than once"},
	{name: "order_by nested", header: `{"+and":[{"+order_by":"id"}]}`, err: "+order_by is only allowed at the top level"},
	{name: "order in field", header: `{"id":{"+order":"asc"}}`, err: "+order is only allowed at the top level"},
}

func TestParseFilterApply(t *testing.T) {
	for _, tc := range filterCases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseFilter(tc.header, testFields)
			if tc.err != "" {
				if err == nil {
					t.Fatalf("no error, want %q", tc.err)
				}
				checkError(t, err, "X-Filter", tc.err)
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			items := testItems()
			got := ids(f.Apply(items))
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			if !slices.Equal(ids(items), all) {
				t.Fatalf("Apply modified its input: %v", ids(items))
			}
		})
	}
}

func TestFilterDeepNesting(t *testing.T) {
	cases := []struct {
		name, header string
		wantErr      bool
	}{
		{"and 3000 deep", nest(3000), false},
		{"and 4999 deep is JSON depth 9999, accepted", nest(4999), false},
		{"and 5000 deep is JSON depth 10001, refused", nest(5000), true},
		{"and 10000 deep", nest(10000), true},
		{"arrays 100000 deep", strings.Repeat("[", 100000), true},
		{"objects 100000 deep", strings.Repeat(`{"+and":[`, 100000), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseFilter(tc.header, testFields)
			if tc.wantErr {
				checkError(t, err, "X-Filter", "The filter is not valid JSON")
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(f.Apply(testItems())); !slices.Equal(got, []int{3}) {
				t.Fatalf("got %v", got)
			}
		})
	}
}

// nest builds {"+and":[{"+and":[ … {"id":3} … ]}]} with depth +and levels.
func nest(depth int) string {
	return strings.Repeat(`{"+and":[`, depth) + `{"id":3}` + strings.Repeat(`]}`, depth)
}

func TestNilFilterMatchesAll(t *testing.T) {
	var f *Filter[testItem]
	if !f.Match(testItem{}) || len(f.Apply(testItems())) != 5 {
		t.Fatal("a nil filter must match everything")
	}
}

func TestMatchDoesNotAllocate(t *testing.T) {
	f, err := ParseFilter(`{"id":{"+gte":1,"+lt":200},"public":true,"+or":[{"entity.id":5},{"id":{"+neq":9}}]}`, testFields)
	if err != nil {
		t.Fatal(err)
	}
	item := testItems()[0]
	if n := testing.AllocsPerRun(100, func() { f.Match(item) }); n != 0 {
		t.Fatalf("Match allocates %v times per call", n)
	}
}
