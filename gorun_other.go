//go:build !linux

package main

import "log/slog"

// dieWithGoRun: only Linux tells a process of its parent's death.
func dieWithGoRun(*slog.Logger) {}
