package chaos

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/pocketforge/pocketforge/fault"
)

// Limits of a rule set: enough for any test, small enough that matching stays cheap.
const (
	MaxRules     = 100
	MaxLatencyMS = 300_000 // five minutes: longer than any client's timeout worth testing
)

// APIs are the names a rule's api may take (the API areas of the HTTP layer); "" is any.
var APIs = []string{"cloud", "build", "explorer", "deploy", "web"}

// methods are the methods a rule's method may name.
var methods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

// Parse decodes and checks a rule set. A rule set that does not parse or is out of range is a
// fault.Invalid error on the field concerned ("rules[2].probability", "seed", or "body" for
// JSON that is not an object): the operator learns which value to fix.
func Parse(data []byte) (Spec, error) {
	var s Spec
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Spec{}, decodeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Spec{}, fault.Invalid("", "the body must be one JSON object").OnField("body")
	}
	if len(s.Rules) > MaxRules {
		return Spec{}, fault.Invalid("", "at most %d rules, got %d", MaxRules, len(s.Rules)).OnField("rules")
	}
	for i := range s.Rules {
		if err := s.Rules[i].check(); err != nil {
			return Spec{}, err.OnField(fmt.Sprintf("rules[%d].%s", i, err.Field))
		}
	}
	return s, nil
}

// decodeError names the field a JSON decoding error concerns.
func decodeError(err error) error {
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &typ) && typ.Field != "":
		return fault.Invalid("", "%s must be a JSON %s, got %s", typ.Field, kindOf(typ), typ.Value).OnField(fieldPath(typ.Field))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return fault.Invalid("", "unknown field %q (a rule has api, method, path_prefix, probability, latency_ms or latency, status or reset; the set has seed and rules)", name).OnField(name)
	}
	return fault.Invalid("", "the body is not a JSON rule set: %v", err).OnField("body")
}

// fieldPath turns encoding/json's "rules.latency.min_ms" into "rules[].latency.min_ms" — the
// decoder does not say which element.
func fieldPath(f string) string {
	if rest, ok := strings.CutPrefix(f, "rules."); ok {
		return "rules[]." + rest
	}
	return f
}

func kindOf(t *json.UnmarshalTypeError) string {
	if t.Type == nil {
		return "value"
	}
	switch t.Type.Kind().String() {
	case "int", "uint64", "float64":
		return "number"
	case "bool":
		return "boolean"
	case "ptr":
		return "number or object"
	}
	return t.Type.Kind().String()
}

// check normalises r (the method upper-cased) and returns the first value out of range, on
// the rule's own field name.
func (r *Rule) check() *fault.Error {
	bad := func(field, format string, args ...any) *fault.Error {
		return fault.Invalid("", format, args...).OnField(field)
	}
	if r.API != "" && !contains(APIs, r.API) {
		return bad("api", "api must be one of %s or empty (any), got %q", strings.Join(APIs, ", "), r.API)
	}
	r.Method = strings.ToUpper(r.Method)
	if r.Method != "" && !contains(methods, r.Method) {
		return bad("method", "method must be one of %s or empty (any), got %q", strings.Join(methods, ", "), r.Method)
	}
	switch {
	case r.PathPrefix != "" && !strings.HasPrefix(r.PathPrefix, "/"):
		return bad("path_prefix", "path_prefix must start with /, got %q", r.PathPrefix)
	case strings.HasPrefix(r.PathPrefix, "/_appliance") || strings.HasPrefix(r.PathPrefix, "/appliance"):
		return bad("path_prefix", "the operator's endpoints (/_appliance, /appliance) are never faulted, so path_prefix %q would match nothing", r.PathPrefix)
	}
	if p := r.Probability; p != nil && !(*p >= 0 && *p <= 1) {
		return bad("probability", "probability must be from 0 to 1, got %v", *p)
	}
	if r.LatencyMS < 0 || r.LatencyMS > MaxLatencyMS {
		return bad("latency_ms", "latency_ms must be from 0 to %d, got %d", MaxLatencyMS, r.LatencyMS)
	}
	if l := r.Latency; l != nil {
		switch {
		case r.LatencyMS != 0:
			return bad("latency", "give latency_ms (fixed) or latency (a range), not both")
		case l.MinMS < 0 || l.MinMS > MaxLatencyMS:
			return bad("latency.min_ms", "latency.min_ms must be from 0 to %d, got %d", MaxLatencyMS, l.MinMS)
		case l.MaxMS < l.MinMS || l.MaxMS > MaxLatencyMS:
			return bad("latency.max_ms", "latency.max_ms must be from min_ms (%d) to %d, got %d", l.MinMS, MaxLatencyMS, l.MaxMS)
		}
	}
	switch {
	case r.Status != 0 && (r.Status < 400 || r.Status > 599):
		return bad("status", "status must be an error status from 400 to 599, got %d", r.Status)
	case r.Status != 0 && r.Reset:
		return bad("reset", "a rule has one effect: status or reset, not both")
	case r.Status == 0 && !r.Reset && r.LatencyMS == 0 && r.Latency == nil:
		return bad("status", "a rule needs an effect: status, reset, or latency_ms/latency (latency only)")
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Replace makes s (checked by Parse) the rule set; an empty one turns injection off.
func (in *Injector) Replace(s Spec) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.install(s.Seed, compile(s.Rules), nil)
}

// Add appends s's rules (checked by Parse) to the current set, keeping the counters of the
// rules already there; a seed in s reseeds the generator.
func (in *Injector) Add(s Spec) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	var rules []rule
	seed, rng := s.Seed, (*lockedRand)(nil)
	if cur := in.set.Load(); cur != nil {
		rules = append(rules, cur.rules...)
		if seed == nil {
			seed, rng = cur.seed, cur.rng
		}
	}
	if len(rules)+len(s.Rules) > MaxRules {
		return fault.Invalid("", "at most %d rules: %d are set, %d more is too many", MaxRules, len(rules), len(s.Rules)).OnField("rules")
	}
	in.install(seed, append(rules, compile(s.Rules)...), rng)
	return nil
}

// Clear removes every rule.
func (in *Injector) Clear() { in.Replace(Spec{}) }

// install publishes a new set; no rules publish nil, the fast path. rng is kept when given
// (Add without a new seed continues the sequence).
func (in *Injector) install(seed *uint64, rules []rule, rng *lockedRand) {
	if len(rules) == 0 {
		in.set.Store(nil)
		return
	}
	if rng == nil && seed != nil {
		rng = newLockedRand(*seed)
	}
	in.set.Store(&set{seed: seed, rules: rules, rng: rng})
}

func compile(rules []Rule) []rule {
	out := make([]rule, len(rules))
	for i, r := range rules {
		p := 1.0
		if r.Probability != nil {
			p = *r.Probability
		}
		out[i] = rule{Rule: r, probability: p, fired: new(atomic.Uint64)}
	}
	return out
}

// RuleView is a rule as GET /_appliance/chaos shows it: as written, the probability spelled
// out, and how many requests it hit.
type RuleView struct {
	Rule
	Probability float64 `json:"probability"`
	Fired       uint64  `json:"fired"`
}

// View is the rule set as GET /_appliance/chaos shows it.
type View struct {
	Seed  *uint64    `json:"seed,omitempty"`
	Rules []RuleView `json:"rules"`
}

// Current returns the rule set with the rules' counters.
func (in *Injector) Current() View {
	v := View{Rules: []RuleView{}}
	s := in.set.Load()
	if s == nil {
		return v
	}
	v.Seed = s.seed
	for _, r := range s.rules {
		v.Rules = append(v.Rules, RuleView{Rule: r.Rule, Probability: r.probability, Fired: r.fired.Load()})
	}
	return v
}
