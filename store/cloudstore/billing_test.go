package cloudstore

import "testing"

// TestCents: money is read and shown as plain dollar amounts with two decimals.
func TestCents(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"60", 6000, true}, {"60.5", 6050, true}, {"60.05", 6005, true}, {"0.00", 0, true}, {"999999999.99", 99999999999, true},
		{"60.005", 0, false}, {"-1", 0, false}, {"1e3", 0, false}, {"abc", 0, false}, {"", 0, false}, {"1000000000", 0, false}, {".5", 0, false},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, ok := ParseCents(c.in)
			if got != c.want || ok != c.ok {
				t.Fatalf("ParseCents(%q) = %d, %v", c.in, got, ok)
			}
		})
	}
	for c, want := range map[int64]string{0: "0.00", 5: "0.05", 12050: "120.50", -50: "-0.50", -1205: "-12.05"} {
		if got := FormatCents(c); got != want {
			t.Errorf("FormatCents(%d) = %q, want %q", c, got, want)
		}
	}
}
