package e2e

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// binPath is the pocketforge binary built once for the end-to-end tests, which drive it as a user
// does: start it, talk HTTP to it, signal it, kill it.
var binPath string

// runDir holds everything one run of the package writes: the binary, the prepared demo data
// file, and — TMPDIR points here — every t.TempDir() and every temporary file of the programs
// the tests start. Removed at the end of the run; should the test binary be killed first, the
// reaper removes it.
var runDir string

const (
	// runDirPrefix names run directories under the system's temporary directory.
	runDirPrefix = "pocketforge-e2e-"
	// groupsDir is the run directory's folder of process-group notes (child_test.go).
	groupsDir = "groups"
	// reaperEnv, set to a run directory, makes the test binary the reaper of that run.
	reaperEnv = "POCKETFORGE_E2E_REAPER"
	// binEnv names a pocketforge binary to test instead of building one (the hygiene test's
	// inner run uses its outer run's).
	binEnv = "POCKETFORGE_E2E_BIN"
	// parallelDefault is how many tests run at once when -test.parallel is not given (Go's
	// default is GOMAXPROCS, 2 here): the tests mostly wait — on a server, osc, a moved clock
	// — so eight at a time fill two cores without a timing test noticing.
	parallelDefault = 8
)

// TestMain makes the run directory and its reaper, builds the binary into it, runs the tests
// (eight at a time, unless -parallel says otherwise) and removes the directory.
func TestMain(m *testing.M) {
	if dir := os.Getenv(reaperEnv); dir != "" {
		reap(dir)
		return
	}
	os.Exit(run(m))
}

func run(m *testing.M) int {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		flag.Set("test.parallel", strconv.Itoa(parallelDefault))
	}
	sweepStaleRuns()
	dir, err := os.MkdirTemp("", runDirPrefix)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	runDir = dir
	defer os.RemoveAll(dir)
	if err := os.Mkdir(filepath.Join(dir, groupsDir), 0o700); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	os.WriteFile(filepath.Join(dir, "pid"), []byte(strconv.Itoa(os.Getpid())), 0o600)
	if err := startReaper(dir); err != nil {
		fmt.Fprintln(os.Stderr, "starting the e2e reaper:", err)
		return 1
	}
	os.Setenv("TMPDIR", dir) // t.TempDir(), chromedp's profiles, go build's work
	if binPath = os.Getenv(binEnv); binPath != "" {
		return m.Run()
	}
	binPath = filepath.Join(dir, "pocketforge")
	// The module path, not ".": the tests run in e2e/, and the binary is the module root's main.
	build := exec.Command("go", "build", "-o", binPath, "github.com/pocketforge/pocketforge")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	done, err := launch(build)
	if err == nil {
		err = <-done
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "building pocketforge for the end-to-end tests:", err)
		return 1
	}
	return m.Run()
}

// startReaper starts this test binary again as the reaper of dir: it holds the read end of a
// pipe whose write end only this process has, so it reads end of file when this process is
// gone, however it ended. It runs in a process group of its own (a Ctrl-C at the terminal does
// not reach it), ignores the signals that end a test run, and writes nowhere (go test waits
// for its test binary's output to close).
func startReaper(dir string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), reaperEnv+"="+dir)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	r.Close()
	go cmd.Wait()
	reaperPipe = w // open, unused, for this process's life
	return nil
}

// reaperPipe is the write end of the reaper's pipe, kept referenced so it is never closed.
var reaperPipe *os.File

// reap waits for the test binary that started it to be gone, kills every process group a test
// started that may still live (each child also got SIGKILL from the kernel), and removes the
// run directory dir.
func reap(dir string) {
	signal.Ignore(syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGHUP)
	io.Copy(io.Discard, os.Stdin)
	for i := 0; i < 50; i++ {
		groups, _ := os.ReadDir(filepath.Join(dir, groupsDir))
		for _, g := range groups {
			if pid, err := strconv.Atoi(g.Name()); err == nil && pid > 1 {
				syscall.Kill(-pid, syscall.SIGKILL)
			}
		}
		if os.RemoveAll(dir) == nil {
			if _, err := os.Stat(dir); os.IsNotExist(err) {
				return
			}
		}
		time.Sleep(100 * time.Millisecond) // a dying process may still hold a file open
	}
}

// sweepStaleRuns removes the run directories of runs whose test binary is gone and whose
// reaper could not clean up (it was killed too): a second line of defence.
func sweepStaleRuns() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), runDirPrefix+"*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "pid"))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 1 {
			continue
		}
		if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
			os.RemoveAll(d)
		}
	}
}
