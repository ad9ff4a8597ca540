package ratelimit

import (
	"math"
	"testing"
	"time"
)

func TestScale(t *testing.T) {
	cases := []struct {
		name   string
		max    int
		factor float64
		want   int
	}{
		{"general to 1 percent", 1600, 0.01, 16},
		{"endpoint default to 1 percent", 800, 0.01, 8},
		{"ticket open to 1 percent rounds up to 1", 2, 0.01, 1},
		{"rounds up", 3, 0.5, 2},
		{"identity", 10, 1, 10},
		{"raises", 100, 2.5, 250},
		{"factor 0 is unlimited", 1600, 0, 0},
		{"negative factor is unlimited", 1600, -1, 0},
		{"NaN factor is unlimited", 1600, math.NaN(), 0},
		{"unlimited stays unlimited", 0, 0.5, 0},
		{"overflow clamps", math.MaxInt / 2, 1e6, math.MaxInt},
		{"infinite factor clamps", 5, math.Inf(1), math.MaxInt},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := Limit{Name: "general", Max: tc.max, Window: 2 * time.Minute}
			got := in.Scale(tc.factor)
			if got.Max != tc.want || got.Name != in.Name || got.Window != in.Window {
				t.Fatalf("Scale(%v) of %+v = %+v, want Max %d", tc.factor, in, got, tc.want)
			}
		})
	}
}

func TestBounds(t *testing.T) {
	cases := []struct {
		name               string
		ns, w              int64
		wantStart, wantEnd int64
	}{
		{"inside", 125, 60, 120, 180},
		{"on the boundary starts a window", 120, 60, 120, 180},
		{"just before the boundary", 119, 60, 60, 120},
		{"zero", 0, 60, 0, 60},
		{"before the epoch rounds down", -1, 60, -60, 0},
		{"before the epoch on a boundary", -60, 60, -60, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			start, end := bounds(tc.ns, tc.w)
			if start != tc.wantStart || end != tc.wantEnd {
				t.Fatalf("bounds(%d, %d) = %d, %d; want %d, %d", tc.ns, tc.w, start, end, tc.wantStart, tc.wantEnd)
			}
		})
	}
}
