package values

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestMerge: helm's coalescing of user values over chart defaults.
func TestMerge(t *testing.T) {
	cases := []struct {
		name                   string
		defaults, values, want string
	}{
		{"user keys win", "a: 1\nb: 2", "b: 3", "a: 1\nb: 3"},
		{"maps merge all the way down", "s: {m: {x: 1, y: 2}, k: v}", "s: {m: {y: 3, z: 4}}", "s: {m: {x: 1, y: 3, z: 4}, k: v}"},
		{"lists replace, never merge", "t: [a, b, c]", "t: [d]", "t: [d]"},
		{"empty list replaces", "t: [a]", "t: []", "t: []"},
		{"empty map merges (changes nothing)", "m: {a: 1}", "m: {}", "m: {a: 1}"},
		{"null removes a default", "a: 1\nb: {c: 2, d: 3}", "a: null\nb: {c: ~}", "b: {d: 3}"},
		{"null removes a whole default map", "s: {m: {x: 1}}", "s: {m: null}", "s: {}"},
		{"null for a key the defaults lack stays", "a: 1", "b: null", "a: 1\nb: null"},
		{"scalar replaces a default map", "image: {repository: r}", "image: quay.io/x", "image: quay.io/x"},
		{"map replaces a default scalar", "tag: v1", "tag: {name: v2}", "tag: {name: v2}"},
		{"new keys are added", "a: 1", "z: {y: 2}", "a: 1\nz: {y: 2}"},
		{"false and zero are values, not unset", "a: true\nn: 5", "a: false\nn: 0", "a: false\nn: 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defaults, values, want := mustParse(t, c.defaults), mustParse(t, c.values), mustParse(t, c.want)
			before := snapshot(t, defaults, values)
			got := Merge(defaults, values)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got  %v\nwant %v", got, want)
			}
			if after := snapshot(t, defaults, values); after != before {
				t.Fatalf("Merge changed its arguments:\n%s\n%s", before, after)
			}
		})
	}
}

// TestDefaultsSwitch: the same file validated over the defaults and alone.
func TestDefaultsSwitch(t *testing.T) {
	cases := []struct {
		name, doc  string
		noDefaults bool
		want       []string // violation paths
	}{
		{"override alone is complete over defaults", "speaker: {logLevel: debug}", false, nil},
		{"override alone lacks what defaults give", "speaker: {logLevel: debug}", true, []string{"/controller", "/speaker/image", "/speaker/serviceAccount", "/speaker/tolerateMaster"}},
		{"empty file alone", "", true, []string{"/controller", "/speaker"}},
		{"null kept as null alone", "controller: {image: {}, serviceAccount: {}}\nspeaker: {image: {}, serviceAccount: {}, tolerateMaster: true}\nrbac: null", true, []string{"/rbac"}},
		{"null removes the default rbac (not required)", "rbac: null", false, nil},
		{"null removes a required default", "speaker: {tolerateMaster: null}", false, []string{"/speaker/tolerateMaster"}},
		{"a bad default is not hidden by a good override", "metrics: {metricsRule: {addressPoolUsage: {thresholds: [{percent: 50}]}}}", false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vs, err := Validate([]byte(c.doc), Options{NoDefaults: c.noDefaults})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range vs {
				got = append(got, v.Path)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %v (%v)\nwant %v", got, vs, c.want)
			}
		})
	}
}

func mustParse(t *testing.T, doc string) map[string]any {
	t.Helper()
	v, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func snapshot(t *testing.T, v ...any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
