package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// proc is one running pocketforge.
type proc struct {
	cmd    *exec.Cmd
	url    string
	token  string // the bootstrap token, when the banner showed it
	stdout *syncBuffer
	stderr *syncBuffer
	done   chan struct{}
	exit   error
}

// cleanEnv keeps the developer's POCKETFORGE_* settings away from the binary under test, and
// gives the program a home and temporary directory of its own in the test's temp dir (so tests
// running in parallel share no configuration or cache, and nothing outlives the test).
func cleanEnv(home string, extra ...string) []string {
	return append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + home}, extra...)
}

var bannerURL = regexp.MustCompile(`listening on (http://\S+)`)
var bannerToken = regexp.MustCompile(`bootstrap token \(.*\): ([0-9a-f]{64})`)

// bannerEnd is the banner's last line, complete. The banner is written line by line, so a reader
// that stops at the first line it knows (the URL) may miss the token printed after it.
var bannerEnd = regexp.MustCompile(`build service user Admin, password: .*\n`)

// hangGuard bounds the waits for a start's banner, for readiness, for a log line and for a CLI
// command: long enough for a machine busy with eight tests and other packages' builds (a start
// there has taken over 10 s), short enough that a hung process fails its test well before the
// package's timeout. How fast a start must be is TestStartToReady's business, not this guard's.
const hangGuard = 60 * time.Second

// start runs the binary with args (plus --addr 127.0.0.1:0) and waits until its whole banner is
// out: where it listens and the credentials it generated.
func start(t *testing.T, args ...string) *proc {
	t.Helper()
	return startIn(t, binPath, "", args...)
}

// startIn is start for the program bin, run in dir ("": the test's directory).
func startIn(t *testing.T, bin, dir string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--addr", "127.0.0.1:0"}, args...)...)
	cmd.Dir = dir
	return startCmd(t, cmd)
}

// startCmd runs cmd (the binary, perhaps under a wrapper such as a shell setting limits) like
// start does.
func startCmd(t *testing.T, cmd *exec.Cmd) *proc {
	t.Helper()
	cmd.Args = withStore(t, cmd.Args)
	p := &proc{cmd: cmd, stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
	p.cmd.Env = append(cleanEnv(t.TempDir()), p.cmd.Env...)
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	exited, err := launch(p.cmd)
	if err != nil {
		t.Fatal(err)
	}
	go func() { p.exit = <-exited; close(p.done) }()
	t.Cleanup(func() { p.kill() })
	out := p.waitOutput(t, p.stdout, bannerEnd, hangGuard)
	m := bannerURL.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the banner names no URL:\n%s", out)
	}
	p.url = m[1]
	if m := bannerToken.FindStringSubmatch(out); m != nil {
		p.token = m[1]
	}
	return p
}

// waitOutput waits until buf, one of the process's outputs, holds a match of re, and returns
// all of it then. Every test that reads a process's output waits this way for the line it
// needs: output arrives in pieces, and one look may come too early.
func (p *proc) waitOutput(t *testing.T, buf *syncBuffer, re *regexp.Regexp, within time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		if out := buf.String(); re.MatchString(out) {
			return out
		}
		select {
		case <-p.done: // the output is complete once Wait returned
			if out := buf.String(); re.MatchString(out) {
				return out
			}
			t.Fatalf("pocketforge exited (%v) before its output showed %q\nstdout: %s\nstderr: %s", p.exit, re, p.stdout, p.stderr)
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("output never showed %q in %v\nstdout: %s\nstderr: %s", re, within, p.stdout, p.stderr)
		}
	}
}

// waitReady polls /_appliance/readyz until it answers 200.
func (p *proc) waitReady(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(p.url + "/_appliance/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("not ready in %v; stderr: %s", hangGuard, p.stderr)
}

// stop sends sig and waits for the exit; it returns the exit code.
func (p *proc) stop(t *testing.T, sig syscall.Signal) int {
	t.Helper()
	p.cmd.Process.Signal(sig)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		t.Fatal("pocketforge did not stop in 15 s")
	}
	return p.cmd.ProcessState.ExitCode()
}

func (p *proc) kill() {
	select {
	case <-p.done:
	default:
		killGroup(p.cmd)
		<-p.done
	}
}

// request sends one HTTP request with the bootstrap token when token is set.
func request(t *testing.T, method, url, token string, body io.Reader) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// runCLI runs the binary to completion and returns its exit code, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runCLIWithInput(t, "", args...)
}

// runCLIWithInput is runCLI with stdin.
func runCLIWithInput(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binPath, withStore(t, args)...)
	cmd.Env = cleanEnv(t.TempDir())
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code, _ := runChild(t, cmd, hangGuard, fmt.Sprint(args))
	return code, out.String(), errb.String()
}

// lastLine returns the last non-empty line of s.
func lastLine(s string) string {
	var last string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			last = l
		}
	}
	return last
}

// syncBuffer is a bytes.Buffer safe for the process's writer and the test's reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// httpClient has a timeout, so a write loop against a killed process ends.
var httpClient = &http.Client{Timeout: 5 * time.Second}

func newRequest(method, url, token, body string) (*http.Request, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err == nil && token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req, err
}

// waitLog waits until the process's log (flushed every 100 ms) contains s.
func (p *proc) waitLog(t *testing.T, s string) string {
	t.Helper()
	return p.waitOutput(t, p.stderr, regexp.MustCompile(regexp.QuoteMeta(s)), hangGuard)
}

// heavyEnv, set to 1, runs the heavy tests: those that only prove the appliance holds up under
// load or scale for a long while (the soak), which a developer's `go test ./...` leaves out to
// stay within minutes. .ci/run sets it.
const heavyEnv = "POCKETFORGE_HEAVY_TESTS"

// requireHeavy skips the test unless heavyEnv is 1.
func requireHeavy(t *testing.T) {
	t.Helper()
	if os.Getenv(heavyEnv) != "1" {
		t.Skipf("a heavy test: set %s=1 to run it (.ci/run does)", heavyEnv)
	}
}
