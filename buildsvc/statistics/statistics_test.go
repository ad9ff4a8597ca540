package statistics

import (
	"math"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/buildsvc"
	"github.com/pocketforge/pocketforge/store/buildstore"
)

// TestActivityFormula: the service's activity arithmetic against values worked out by hand
// (index · 2.3276^(Δt/1e7 s); an update adds 10 per day since the last, at most 10, and caps
// at 100).
func TestActivityFormula(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	scale := time.Duration(buildsvc.ActivityScale) * time.Second
	start := buildstore.Activity{Index: 20, Updated: t0}
	cases := []struct {
		name string
		got  float64
		want float64
	}{
		{"no time passed", buildsvc.ActivityAt(start, t0), 20},
		{"one scale later: divided by the base", buildsvc.ActivityAt(start, t0.Add(scale)), 20 / 2.3276},
		{"a day later", buildsvc.ActivityAt(start, t0.Add(day)), 19.854543564535298},
		{"an update a scale later adds the capped 10", buildsvc.Bumped(start, t0.Add(scale)).Index, 18.59254167382712},
		{"and decays a day after", buildsvc.ActivityAt(buildsvc.Bumped(start, t0.Add(scale)), t0.Add(scale+day)), 18.45732143192193},
		{"six hours add 2.5", buildsvc.Bumped(start, t0.Add(6*time.Hour)).Index, 22.46353629213478},
		{"two daily updates", buildsvc.Bumped(buildsvc.Bumped(start, t0.Add(day)), t0.Add(2*day)).Index, 39.63741679006915},
		{"capped at 100", buildsvc.Bumped(buildstore.Activity{Index: 99, Updated: t0}, t0.Add(day)).Index, 100},
		{"a clock gone back adds nothing", buildsvc.Bumped(start, t0.Add(-day)).Index, 20 * math.Pow(2.3276, 86400/1e7)},
	}
	for _, c := range cases {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("%s: %.15g, want %.15g", c.name, c.got, c.want)
		}
	}
	if b := buildsvc.Bumped(buildsvc.Bumped(start, t0.Add(day)), t0.Add(2*day)); b.Updates != 2 || !b.Updated.Equal(t0.Add(2*day)) {
		t.Errorf("two updates: %+v", b)
	}
}

// TestStatisticsInput: the limit, score and redirect-name readers.
func TestStatisticsInput(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{{"", 10, true}, {"0", 0, true}, {" 7 ", 7, true}, {"-1", 0, false}, {"ten", 0, false}, {"1.5", 0, false}} {
		n, err := statsLimit(c.in, 10)
		if (err == nil) != c.ok || (c.ok && n != c.want) {
			t.Errorf("limit %q: %d, %v", c.in, n, err)
		}
	}
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{{"<rating>4</rating>", 4, true}, {" 5\n", 5, true}, {"<score> 1 </score>", 1, true},
		{"<rating>0</rating>", 0, false}, {"6", 0, false}, {"4.5", 0, false}, {"good", 0, false}, {"", 0, false}, {"<rating>", 0, false}} {
		n, err := parseScore(c.in)
		if (err == nil) != c.ok || (c.ok && n != c.want) {
			t.Errorf("score %q: %d, %v", c.in, n, err)
		}
	}
}
