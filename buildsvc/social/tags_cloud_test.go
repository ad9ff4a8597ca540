package social

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pocketforge/pocketforge/fault"
)

// cloudString writes a cloud as "name=value …" (the count for raw, else the size).
func cloudString(tags []CloudTag, dist string) string {
	var out []string
	for _, t := range tags {
		v := t.Size
		if dist == CloudRaw {
			v = t.Count
		}
		out = append(out, fmt.Sprintf("%s=%d", t.Name, v))
	}
	return strings.Join(out, " ")
}

// TestCloudTags: the three distributions against sizes computed by hand (ln = natural log).
func TestCloudTags(t *testing.T) {
	// The service's own test counts: TagA 3, TagB 4, TagC 4, TagD/E/F 1; min 1, max 4.
	obs := map[string]int{"TagA": 3, "TagB": 4, "TagC": 4, "TagD": 1, "TagE": 1, "TagF": 1}
	// The demo world's: pocket 5, devtools 3, cli/forge/library 2, base/build/c/distribution 1.
	demo := map[string]int{"pocket": 5, "devtools": 3, "cli": 2, "forge": 2, "library": 2,
		"base": 1, "build": 1, "c": 1, "distribution": 1}
	cases := []struct {
		name   string
		counts map[string]int
		dist   string
		steps  int
		limit  int
		want   string
	}{
		{"obs raw", obs, CloudRaw, 6, 100, "TagA=3 TagB=4 TagC=4 TagD=1 TagE=1 TagF=1"},
		// linear, span 4−1 = 3: TagA 6×(3−1)/3 = 4; TagB/C 6×3/3 = 6; the 1s 0 (the service's
		// test wants 4 6 6 0 0 0).
		{"obs linear", obs, CloudLinear, 6, 100, "TagA=4 TagB=6 TagC=6 TagD=0 TagE=0 TagF=0"},
		// logarithmic, span ln4 − ln1 = 1.386294: TagA 6×1.098612/1.386294 = 4.754888 → 5;
		// TagB/C 6; the 1s 0 (the service's test wants 5 6 6 0 0 0).
		{"obs logarithmic", obs, CloudLogarithmic, 6, 100, "TagA=5 TagB=6 TagC=6 TagD=0 TagE=0 TagF=0"},
		// linear, span 5−1 = 4: devtools 6×2/4 = 3; the 2s 6×1/4 = 1.5 → 2 (halves away from 0).
		{"demo linear", demo, CloudLinear, 6, 100,
			"base=0 build=0 c=0 cli=2 devtools=3 distribution=0 forge=2 library=2 pocket=6"},
		// logarithmic, span ln5 = 1.609438: devtools 6×1.098612/1.609438 = 4.095638 → 4; the 2s
		// 6×0.693147/1.609438 = 2.584059 → 3.
		{"demo logarithmic", demo, CloudLogarithmic, 6, 100,
			"base=0 build=0 c=0 cli=3 devtools=4 distribution=0 forge=3 library=3 pocket=6"},
		// 10 steps: devtools 10×0.682606 = 6.83 → 7; the 2s 10×0.430677 = 4.31 → 4.
		{"demo logarithmic 10", demo, CloudLogarithmic, 10, 0,
			"base=0 build=0 c=0 cli=4 devtools=7 distribution=0 forge=4 library=4 pocket=10"},
		{"demo raw", demo, CloudRaw, 6, 0,
			"base=1 build=1 c=1 cli=2 devtools=3 distribution=1 forge=2 library=2 pocket=5"},
		// limit 3: the most used are pocket 5, devtools 3, then of the 2s the first by name, cli;
		// min 2, max 5. linear, span 3: devtools 6×1/3 = 2, cli 0, pocket 6.
		{"limit linear", demo, CloudLinear, 6, 3, "cli=0 devtools=2 pocket=6"},
		// logarithmic, span ln5 − ln2 = 0.916291: devtools 6×(1.098612−0.693147)/0.916291 =
		// 6×0.442507 = 2.655 → 3.
		{"limit logarithmic", demo, CloudLogarithmic, 6, 3, "cli=0 devtools=3 pocket=6"},
		{"limit raw", demo, CloudRaw, 6, 3, "cli=2 devtools=3 pocket=5"},
		// one step, counts 1 2 3: linear y = 1×(2−1)/2 = 0.5 → 1, z = 1.
		{"half rounds up", map[string]int{"x": 1, "y": 2, "z": 3}, CloudLinear, 1, 0, "x=0 y=1 z=1"},
		// max = min: the span is 1 and every ratio 0.
		{"equal counts linear", map[string]int{"a": 2, "b": 2}, CloudLinear, 6, 100, "a=0 b=0"},
		{"equal counts logarithmic", map[string]int{"a": 2, "b": 2}, CloudLogarithmic, 6, 100, "a=0 b=0"},
		{"no tags", map[string]int{}, CloudLogarithmic, 6, 100, ""},
		// names sort case-insensitively, ties by the exact name
		{"order", map[string]int{"b": 1, "B": 1, "a": 1, "C": 1}, CloudRaw, 6, 0, "a=1 B=1 b=1 C=1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := cloudString(cloudTags(c.counts, c.dist, c.steps, c.limit), c.dist); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestCloudParams: defaults (logarithmic, 6 steps, limit 100), the bounds, and the refusals.
func TestCloudParams(t *testing.T) {
	cases := []struct {
		q    TagCloudQuery
		want string // "steps dist limit" or the refusal's message
	}{
		{TagCloudQuery{}, "6 logarithmic 100"},
		{TagCloudQuery{Distribution: "raw", Steps: "1", Limit: "0"}, "1 raw 0"},
		{TagCloudQuery{Distribution: "linear", Steps: "100", Limit: "7"}, "100 linear 7"},
		{TagCloudQuery{Steps: "0"}, "Invalid value for parameter steps.  (must be 1..100)"},
		{TagCloudQuery{Steps: "101"}, "Invalid value for parameter steps.  (must be 1..100)"},
		{TagCloudQuery{Steps: "6x"}, "Invalid value for parameter steps.  (must be 1..100)"},
		{TagCloudQuery{Distribution: "cubic"}, "Invalid value for parameter distribution.  (distribution=cubic)"},
		{TagCloudQuery{Limit: "-1"}, "Invalid value for parameter limit.  (must be an integer, 0 for no limit)"},
		{TagCloudQuery{Limit: "1.5"}, "Invalid value for parameter limit.  (must be an integer, 0 for no limit)"},
	}
	for _, c := range cases {
		steps, dist, limit, err := cloudParams(c.q)
		got := fmt.Sprintf("%d %s %d", steps, dist, limit)
		if err != nil {
			got = err.Error()
			if fault.Code(err) != "invalid_value" {
				t.Errorf("%+v: code %q", c.q, fault.Code(err))
			}
		}
		if got != c.want {
			t.Errorf("%+v: %s, want %s", c.q, got, c.want)
		}
	}
}

// TestTagNames: the service refuses ? and :; empty, over-long and control-character names are
// refused too; the refusal names every bad one.
func TestTagNames(t *testing.T) {
	for _, ok := range []string{"pocket", "two words", "ünïcode", "a/b", strings.Repeat("x", MaxTagLength)} {
		if !validTagName(ok) {
			t.Errorf("%q refused", ok)
		}
	}
	for _, bad := range []string{"", "why?", "a:b", "TagA::TagB", "tab\there", "nul\x00", "\xff", strings.Repeat("x", MaxTagLength+1)} {
		if validTagName(bad) {
			t.Errorf("%q taken", bad)
		}
	}
	err := checkTagNames([]string{"fine", "why?", "a:b"})
	if fault.Code(err) != "tagcreation_error" || err.Error() != `[TAG:] There are rejected Tags: ["why?", "a:b"]` {
		t.Errorf("%v (%s)", err, fault.Code(err))
	}
	if err := checkTagNames([]string{"fine", "also fine"}); err != nil {
		t.Error(err)
	}
}
