package main

import "testing"

// TestIsGoRun: the parents dieWithGoRun follows, and the ones it leaves alone.
func TestIsGoRun(t *testing.T) {
	for cmdline, want := range map[string]bool{
		"go\x00run\x00.\x00": true,
		"/usr/local/go/bin/go\x00run\x00.\x00--dev-clock\x00": true,
		"go\x00build\x00":                        false,
		"/bin/bash\x00":                          false,
		"/usr/lib/systemd/systemd\x00--user\x00": false,
		"gopher\x00run\x00":                      false,
		"":                                       false,
	} {
		if got := isGoRun([]byte(cmdline)); got != want {
			t.Errorf("isGoRun(%q) = %v", cmdline, got)
		}
	}
}
