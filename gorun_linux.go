//go:build linux

package main

import (
	"fmt"
	"log/slog"
	"os"
	"syscall"
)

// dieWithGoRun makes a server started by `go run .` stop when go run does (issue 32): go run
// does not pass a SIGTERM on to the program it runs, so `kill <go run's pid>` left the server
// running, holding the port and the data file's lock. Only then: a server whose parent is
// anything else (a shell it outlives under nohup, systemd, a container's init) is left alone.
func dieWithGoRun(log *slog.Logger) {
	ppid := os.Getppid()
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", ppid))
	if err != nil || !isGoRun(cmdline) {
		return
	}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM), 0); errno != 0 {
		return
	}
	if os.Getppid() != ppid { // go run ended before the signal was asked for
		log.Warn("go run has ended: stopping")
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
		return
	}
	log.Info("started by go run: stopping when it does")
}
