package config

import (
	"log/slog"
	"testing"
)

func TestParseAddrValid(t *testing.T) {
	for _, in := range []string{
		"127.0.0.1:8080", ":8080", ":0", "0.0.0.0:65535", "[::]:80", "[::1]:0", "[fe80::1%eth0]:80",
		"localhost:8080", "forge.example.com:443", "a-b.c:1",
	} {
		t.Run(in, func(t *testing.T) {
			if got, err := parseAddr(in); err != nil || got != in {
				t.Errorf("parseAddr(%q) = %q, %v", in, got, err)
			}
		})
	}
}

func TestParseExternalURLValid(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"http://forge.lan", "http://forge.lan"},
		{"https://forge.example.com/", "https://forge.example.com"},
		{"https://forge.example.com//", "https://forge.example.com"},
		{"http://10.0.0.5:8080/pf/", "http://10.0.0.5:8080/pf"},
		{"http://[::1]:8080", "http://[::1]:8080"},
		{"HTTPS://Forge.Example.com", "HTTPS://Forge.Example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got, err := parseExternalURL(tt.in); err != nil || got != tt.want {
				t.Errorf("parseExternalURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestParseLevel(t *testing.T) {
	tests := []struct {
		in   string
		want slog.Level
	}{
		{"debug", slog.LevelDebug}, {"Info", slog.LevelInfo}, {"WARN", slog.LevelWarn}, {"error", slog.LevelError},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got, err := parseLevel(tt.in); err != nil || got != tt.want {
				t.Errorf("parseLevel(%q) = %v, %v", tt.in, got, err)
			}
		})
	}
}

func TestParseSecretsValid(t *testing.T) {
	tests := []struct {
		name  string
		parse func(string) (string, error)
		in    string
	}{
		{"token min", parseToken, "12345678"},
		{"token symbols", parseToken, "A-b_c.d~e!f@g#h$"},
		{"password min", parsePassword, "abcdef"},
		{"password spaces and unicode", parsePassword, "pässwört mit leer"},
		{"empty token keeps stored", parseToken, ""},
		{"empty password keeps stored", parsePassword, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := tt.parse(tt.in); err != nil || got != tt.in {
				t.Errorf("parse(%q) = %q, %v", tt.in, got, err)
			}
		})
	}
}
