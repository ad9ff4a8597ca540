package api

import "testing"

// TestAreaByRoot: the map finds the area the prefix walk finds, for every prefix, below it, next
// to it and outside all of them.
func TestAreaByRoot(t *testing.T) {
	if areaByRoot == nil {
		t.Skip("an area prefix has several segments: areaOf walks the prefixes")
	}
	paths := []string{"", "/", "//", "/x", "/v4x", "/appliance", "/badges", "/api2", "/source/", "/metricsx"}
	for _, ar := range areas {
		for _, p := range ar.prefixes {
			paths = append(paths, p, p+"/", p+"/a/b", p+"x", p+"?q", p[:len(p)-1])
		}
	}
	for _, p := range paths {
		if got, want := areaOf(p), areaByPrefix(p); got != want {
			t.Errorf("%q: %s, the prefix walk says %s", p, got.name, want.name)
		}
	}
}
