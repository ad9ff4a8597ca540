package jsoniter

import (
	"strings"
	"testing"
)

// point is shaped like the geo shapes bleve marshals: a type tag and coordinates.
type point struct {
	Typ      string    `json:"type"`
	Vertices []float64 `json:"coordinates"`
}

// TestCompatible: ConfigCompatibleWithStandardLibrary round-trips a value as encoding/json does
// (HTML-safe strings, sorted map keys), and refuses what encoding/json refuses.
func TestCompatible(t *testing.T) {
	api := ConfigCompatibleWithStandardLibrary
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"struct", point{Typ: "point", Vertices: []float64{1.5, -2}}, `{"type":"point","coordinates":[1.5,-2]}`},
		{"sorted keys", map[string]int{"b": 2, "a": 1}, `{"a":1,"b":2}`},
		{"html escaped", "<a&b>", `"\u003ca\u0026b\u003e"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := api.Marshal(c.in)
			if err != nil || string(got) != c.want {
				t.Fatalf("Marshal = %s, %v; want %s", got, err, c.want)
			}
		})
	}
	var p point
	if err := api.Unmarshal([]byte(`{"type":"point","coordinates":[3,4]}`), &p); err != nil || p.Typ != "point" || len(p.Vertices) != 2 || p.Vertices[1] != 4 {
		t.Fatalf("Unmarshal = %+v, %v", p, err)
	}
	if err := api.Unmarshal([]byte(`{"type":`), &p); err == nil || !strings.Contains(err.Error(), "unexpected end") {
		t.Fatalf("Unmarshal of a cut document: %v", err)
	}
}
