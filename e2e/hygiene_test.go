package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hygieneEnv, set to a file's path, makes TestHygieneInner start a server, write its pid and
// the run directory to that file, and wait to be killed.
const hygieneEnv = "POCKETFORGE_E2E_HYGIENE"

// TestInterruptedRunLeavesNothing runs this test binary again (on the built binary, through
// TestHygieneInner): a test that has started a server, with a data file in its temp dir. The
// inner run is then ended as a run can end early — SIGKILL (kill -9 of the test binary),
// SIGQUIT (what go test sends when the timeout has passed), SIGINT (Ctrl-C) — and afterwards
// no process of it lives and its run directory, holding every file it wrote, is gone.
func TestInterruptedRunLeavesNothing(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGQUIT, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			report := filepath.Join(t.TempDir(), "report")
			inner := exec.Command(self, "-test.run=^TestHygieneInner$", "-test.v")
			inner.Env = append(os.Environ(), hygieneEnv+"="+report, binEnv+"="+binPath, "TMPDIR="+os.TempDir())
			var out syncBuffer
			inner.Stdout, inner.Stderr = &out, &out
			exited, err := launch(inner)
			if err != nil {
				t.Fatal(err)
			}
			var fields []string
			for deadline := time.Now().Add(60 * time.Second); len(fields) != 2; time.Sleep(50 * time.Millisecond) {
				if time.Now().After(deadline) {
					killGroup(inner)
					<-exited
					t.Fatalf("the inner run never started its server:\n%s", out.String())
				}
				b, _ := os.ReadFile(report)
				fields = strings.Fields(string(b))
			}
			pid, _ := strconv.Atoi(fields[0])
			dir := fields[1]
			if !strings.HasPrefix(dir, filepath.Join(os.TempDir(), runDirPrefix)) {
				t.Fatalf("the inner run's directory %s is not a run directory", dir)
			}
			if !alive(pid) {
				t.Fatalf("the inner run's server %d is not running", pid)
			}
			inner.Process.Signal(sig)
			select {
			case <-exited:
			case <-time.After(30 * time.Second):
				killGroup(inner)
				t.Fatalf("the inner run did not end on %v:\n%s", sig, out.String())
			}
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				_, statErr := os.Stat(dir)
				if !alive(pid) && os.IsNotExist(statErr) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("after %v: server %d alive %v, run directory %s left (%v)\n%s", sig, pid, alive(pid), dir, statErr, out.String())
				}
			}
		})
	}
}

// alive says whether process pid runs (a zombie, dead and not yet reaped, does not).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// TestHygieneInner is TestInterruptedRunLeavesNothing's inner run; without hygieneEnv it skips.
func TestHygieneInner(t *testing.T) {
	report := os.Getenv(hygieneEnv)
	if report == "" {
		t.Skip("the inner run of TestInterruptedRunLeavesNothing")
	}
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--no-fixtures")
	p.waitReady(t)
	if err := os.WriteFile(report, []byte(strconv.Itoa(p.cmd.Process.Pid)+" "+runDir), 0o600); err != nil {
		t.Fatal(err)
	}
	<-p.done
	t.Fatalf("the server ended before the inner run was killed: %v", p.exit)
}
