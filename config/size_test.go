package config

import "testing"

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"262144", 262144, true},
		{"256KiB", 256 << 10, true},
		{"64MiB", 64 << 20, true},
		{"1GiB", 1 << 30, true},
		{"10MB", 10_000_000, true},
		{"1GB", 1_000_000_000, true},
		{"2kb", 2000, true},
		{"2kib", 2048, true},
		{"7 mib", 7 << 20, true},
		{"512B", 512, true},
		{" 3KB ", 3000, true},
		{"", 0, false},
		{"KiB", 0, false},
		{"-1KiB", 0, false},
		{"12XB", 0, false},
		{"1.5MiB", 0, false},
		{"1TB", 0, false},
		{"9223372036854775807GiB", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseSize(tt.in)
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("parseSize(%q) = %d, %v; want %d, ok %v", tt.in, got, err, tt.want, tt.ok)
			}
		})
	}
}

func TestFormatSize(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{256 << 20, "256MiB"},
		{1 << 30, "1GiB"},
		{16 << 30, "16GiB"},
		{10_000_000, "10MB"},
		{2_000_000_000, "2GB"},
		{1024, "1KiB"},
		{3000, "3KB"},
		{1500, "1500"},
		{0, "0"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got := formatSize(tt.in)
			if got != tt.want {
				t.Errorf("formatSize(%d) = %q, want %q", tt.in, got, tt.want)
			}
			if back, err := parseSize(got); err != nil || back != tt.in {
				t.Errorf("parseSize(%q) = %d, %v; want %d", got, back, err, tt.in)
			}
		})
	}
}
