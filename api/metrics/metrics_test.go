package metrics

import (
	"testing"
	"time"
	"unsafe"
)

// TestRequestLabelsOwnTheirValues: fiber's method views a buffer the next request overwrites;
// the series counted for a GET must stay GET when that buffer then holds PUT.
func TestRequestLabelsOwnTheirValues(t *testing.T) {
	m := New()
	buf := []byte("GET")
	m.Request("build", unsafe.String(&buf[0], len(buf)), "/source", 200, time.Millisecond)
	copy(buf, "PUT")
	m.Request("build", "PROPFIND", "/source", 200, time.Millisecond)
	fams, err := m.Gatherer().Gather()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range fams {
		if f.GetName() != "pocketforge_http_requests_total" {
			continue
		}
		for _, s := range f.GetMetric() {
			for _, l := range s.GetLabel() {
				if l.GetName() == "method" {
					seen[l.GetValue()] = true
				}
			}
		}
	}
	if !seen["GET"] || !seen["other"] || seen["PUT"] || len(seen) != 2 {
		t.Fatalf("method labels %v, want GET and other", seen)
	}
}
