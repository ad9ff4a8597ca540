package main

import (
	"bytes"
	"path/filepath"
)

// isGoRun reports whether a /proc cmdline (NUL-separated arguments) is the go command's run.
func isGoRun(cmdline []byte) bool {
	args := bytes.Split(bytes.TrimRight(cmdline, "\x00"), []byte{0})
	return len(args) >= 2 && filepath.Base(string(args[0])) == "go" && string(args[1]) == "run"
}
