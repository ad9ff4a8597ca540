package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// Every process a test starts — pocketforge, osc, rpm, dnf, node, git — goes through launch,
// so that it dies with the test process however that ends: a pass, a failure, the test
// timeout's SIGQUIT, a Ctrl-C or a kill -9 of the test binary. Linux sends the parent-death
// signal (SIGKILL) when the thread that started the child exits, not the process: Go may
// retire the thread a goroutine ran on, so the child is started and waited for by one
// goroutine locked to its thread for the child's whole life. Each child also leads a process
// group of its own (a Ctrl-C at the terminal reaches the test binary only; what the child
// starts can be killed with it), and the group is recorded in the run directory, where the
// reaper (main_test.go) finds and kills what is left should the test binary die first.

// launch starts cmd, bound to this process's life, and returns the channel that receives
// Wait's result once the child has exited.
func launch(cmd *exec.Cmd) (<-chan error, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	started := make(chan error, 1)
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread() // only once the child is reaped
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		mark := recordGroup(cmd.Process.Pid)
		started <- nil
		err := cmd.Wait()
		os.Remove(mark)
		done <- err
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return done, nil
}

// recordGroup notes the process group led by pid in the run directory's groups folder and
// returns the note's path (the reaper kills the groups noted there).
func recordGroup(pid int) string {
	if runDir == "" {
		return ""
	}
	mark := filepath.Join(runDir, groupsDir, strconv.Itoa(pid))
	os.WriteFile(mark, nil, 0o600)
	return mark
}

// killGroup kills the process group cmd leads (the child and whatever it started).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// runChild runs cmd to completion through launch, with its combined output, and kills its
// process group when it takes longer than within (the test fails, naming what).
func runChild(t *testing.T, cmd *exec.Cmd, within time.Duration, what string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	if cmd.Stdout == nil {
		cmd.Stdout = &out
	}
	if cmd.Stderr == nil {
		cmd.Stderr = &out
	}
	done, err := launch(cmd)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	select {
	case <-done:
	case <-time.After(within):
		killGroup(cmd)
		<-done
		t.Fatalf("%s hung (more than %v): %s", what, within, out.String())
	}
	return cmd.ProcessState.ExitCode(), out.String()
}
