package chaos

import (
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/fault"
)

func mustParse(t *testing.T, body string) Spec {
	t.Helper()
	s, err := Parse([]byte(body))
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return s
}

// TestParseNamesTheField: every rule that does not parse or is out of range is refused on the
// field to fix.
func TestParseNamesTheField(t *testing.T) {
	cases := map[string]string{
		`[]`:                            "body",
		`{"rules":[{"status":503}]} {}`: "body",
		`{"rules":[{"api":"mail","status":503}]}`:                        "rules[0].api",
		`{"rules":[{"status":503},{"method":"FETCH","status":503}]}`:     "rules[1].method",
		`{"rules":[{"path_prefix":"v4","status":503}]}`:                  "rules[0].path_prefix",
		`{"rules":[{"path_prefix":"/_appliance/","status":503}]}`:        "rules[0].path_prefix",
		`{"rules":[{"probability":1.5,"status":503}]}`:                   "rules[0].probability",
		`{"rules":[{"probability":-0.1,"status":503}]}`:                  "rules[0].probability",
		`{"rules":[{"probability":"half","status":503}]}`:                "rules[].probability",
		`{"rules":[{"latency_ms":-1}]}`:                                  "rules[0].latency_ms",
		`{"rules":[{"latency_ms":300001}]}`:                              "rules[0].latency_ms",
		`{"rules":[{"latency_ms":5,"latency":{"min_ms":1,"max_ms":2}}]}`: "rules[0].latency",
		`{"rules":[{"latency":{"min_ms":-1,"max_ms":2}}]}`:               "rules[0].latency.min_ms",
		`{"rules":[{"latency":{"min_ms":20,"max_ms":10}}]}`:              "rules[0].latency.max_ms",
		`{"rules":[{"status":200}]}`:                                     "rules[0].status",
		`{"rules":[{"status":503,"reset":true}]}`:                        "rules[0].reset",
		`{"rules":[{"api":"cloud"}]}`:                                    "rules[0].status",
		`{"rules":[{"status":503,"colour":"red"}]}`:                      "colour",
		`{"seed":-3,"rules":[]}`:                                         "seed",
	}
	for body, field := range cases {
		_, err := Parse([]byte(body))
		if err == nil || fault.Field(err) != field {
			t.Errorf("%s: field %q (%v), want %q", body, fault.Field(err), err, field)
		}
	}
	s := mustParse(t, `{"rules":[{"method":"post","status":503}]}`)
	if s.Rules[0].Method != "POST" {
		t.Fatalf("method not normalised: %q", s.Rules[0].Method)
	}
}

// TestPick: rules by API, method and path prefix, probability 1 and 0, the first rule that
// fires wins, and no rules pick nothing.
func TestPick(t *testing.T) {
	in := New()
	if _, ok := in.Pick("cloud", "GET", "/v4/account"); ok {
		t.Fatal("no rules picked a fault")
	}
	in.Replace(mustParse(t, `{"rules":[
		{"api":"cloud","method":"POST","path_prefix":"/v4/linode","status":503},
		{"api":"build","probability":0,"status":500},
		{"api":"build","path_prefix":"/source","reset":true,"latency_ms":5},
		{"latency":{"min_ms":10,"max_ms":10}}]}`))
	cases := []struct {
		api, method, path string
		want              Fault
	}{
		{"cloud", "POST", "/v4/linode/instances", Fault{Rule: 0, Status: 503}},
		{"cloud", "GET", "/v4/linode/instances", Fault{Rule: 3, Latency: 10 * time.Millisecond}},
		{"build", "GET", "/source/x", Fault{Rule: 2, Latency: 5 * time.Millisecond, Reset: true}},
		{"build", "GET", "/about", Fault{Rule: 3, Latency: 10 * time.Millisecond}},
	}
	for _, c := range cases {
		if got, ok := in.Pick(c.api, c.method, c.path); !ok || got != c.want {
			t.Errorf("%s %s %s: %+v %v, want %+v", c.api, c.method, c.path, got, ok, c.want)
		}
	}
	v := in.Current()
	if len(v.Rules) != 4 || v.Rules[0].Fired != 1 || v.Rules[1].Fired != 0 || v.Rules[3].Fired != 2 || v.Rules[1].Probability != 0 {
		t.Fatalf("view: %+v", v)
	}
	if err := in.Add(mustParse(t, `{"rules":[{"status":418}]}`)); err != nil {
		t.Fatal(err)
	}
	if v := in.Current(); len(v.Rules) != 5 || v.Rules[0].Fired != 1 {
		t.Fatalf("add lost the rules or their counters: %+v", v)
	}
	in.Clear()
	if _, ok := in.Pick("cloud", "POST", "/v4/linode/instances"); ok || in.set.Load() != nil {
		t.Fatal("cleared rules still fire")
	}
}

// TestSeededFraction: with a seed, a probability hits about that fraction of requests, and the
// same seed hits the same requests again.
func TestSeededFraction(t *testing.T) {
	run := func() []bool {
		in := New()
		in.Replace(mustParse(t, `{"seed":7,"rules":[{"probability":0.25,"status":503},{"latency":{"min_ms":1,"max_ms":3}}]}`))
		var hits []bool
		for range 2000 {
			f, _ := in.Pick("explorer", "GET", "/api/products")
			hits = append(hits, f.Status == 503)
			if f.Status == 0 && (f.Latency < time.Millisecond || f.Latency > 3*time.Millisecond) {
				t.Fatalf("latency out of its range: %v", f.Latency)
			}
		}
		return hits
	}
	a, b := run(), run()
	n := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("request %d differs between two runs with one seed", i)
		}
		if a[i] {
			n++
		}
	}
	if n < 420 || n > 580 {
		t.Fatalf("probability 0.25 hit %d of 2000", n)
	}
}
