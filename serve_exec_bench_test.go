//go:build linux

package main

import (
	"bufio"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkExecToReady starts the real binary, as a user does, and times from exec until
// /_appliance/readyz answers 200: on a fresh data file (the demo world loads; its products
// build in the background after readiness) and on a restart over that file; and `pocketforge
// version` from exec to exit. The raw layer is a bare net/http program built the same way,
// timed in the same runs: exec to its first 200, and exec to exit. Each run of the benchmark
// takes 5 of each, interleaved, and reports the medians (ms) and the ratios to the raw layer.
// Budgets (issue 31): restart < 1 s, fresh < 1.5 s, version < 50 ms.
//
//	go test -run '^$' -bench ExecToReady -benchtime 1x .
//
// POCKETFORGE_BENCH_BIN=path times that binary instead of building this tree (to compare an
// older build in the same conditions).
func BenchmarkExecToReady(b *testing.B) {
	if testing.Short() {
		b.Skip("builds the binary")
	}
	dir := b.TempDir()
	app := os.Getenv("POCKETFORGE_BENCH_BIN")
	if app == "" {
		app = buildBinary(b, ".", filepath.Join(dir, "pocketforge"))
	}
	raw := buildBinary(b, writeRawServer(b, dir), filepath.Join(dir, "raw"))
	const runs = 5
	var fresh, restart, version, rawReady, rawExit []float64
	for i := 0; i < b.N; i++ {
		for r := 0; r < runs; r++ {
			rawReady = append(rawReady, startToReady(b, raw, nil))
			data := filepath.Join(b.TempDir(), "pocketforge.db")
			args := []string{"--addr", "127.0.0.1:0", "--data", data}
			fresh = append(fresh, startToReady(b, app, args))
			restart = append(restart, startToReady(b, app, args))
			version = append(version, execToExit(b, app, "version"))
			rawExit = append(rawExit, execToExit(b, raw, "version"))
		}
	}
	rr := median(rawReady)
	b.ReportMetric(median(fresh), "fresh-ms")
	b.ReportMetric(median(restart), "restart-ms")
	b.ReportMetric(median(version), "version-ms")
	b.ReportMetric(rr, "raw-ready-ms")
	b.ReportMetric(median(rawExit), "raw-exit-ms")
	b.ReportMetric(median(fresh)/rr, "fresh-x-raw")
	b.ReportMetric(median(restart)/rr, "restart-x-raw")
	b.ReportMetric(median(version)/median(rawExit), "version-x-raw")
}

// buildBinary builds the main package in dir as the release does (static, trimmed, stripped)
// into out.
func buildBinary(b *testing.B, dir, out string) string {
	b.Helper()
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build in %s: %v\n%s", dir, err, msg)
	}
	return out
}

// writeRawServer writes the raw layer's source: a net/http server that prints its URL the way
// pocketforge's banner does and answers 200; with the argument "version" it prints and exits.
func writeRawServer(b *testing.B, dir string) string {
	b.Helper()
	src := filepath.Join(dir, "rawsrc")
	const prog = `package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "version" {
		fmt.Println("raw")
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	fmt.Printf("raw listening on http://%s (data: none)\n", ln.Addr())
	http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
}
`
	if err := os.MkdirAll(src, 0o755); err != nil {
		b.Fatal(err)
	}
	for name, body := range map[string]string{"main.go": prog, "go.mod": "module raw\n\ngo 1.22\n"} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return src
}

var listeningOn = regexp.MustCompile(`listening on (http://\S+)`)

// startToReady execs bin with args, reads the URL from its banner, polls readyz until 200, and
// returns the milliseconds from exec to that 200; then it stops the process with SIGTERM (the
// data file closed as on any stop) and waits for it.
func startToReady(b *testing.B, bin string, args []string) float64 {
	b.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + b.TempDir(), "TMPDIR=" + os.TempDir()}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlives the test
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
			b.Fatalf("%s did not stop within 30 s of SIGTERM", bin)
		}
	}()
	lines := bufio.NewScanner(out)
	url := ""
	for url == "" && lines.Scan() {
		if m := listeningOn.FindStringSubmatch(lines.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		b.Fatalf("%s printed no URL", bin)
	}
	go func() { // keep draining stdout so the process never blocks on a full pipe
		for lines.Scan() {
		}
	}()
	client := &http.Client{Timeout: 5 * time.Second}
	for deadline := begin.Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		resp, err := client.Get(strings.TrimSuffix(url, "/") + "/_appliance/readyz")
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return float64(time.Since(begin).Microseconds()) / 1000
		}
	}
	b.Fatalf("%s: readyz not 200 within 2 minutes", bin)
	return 0
}

// execToExit returns the milliseconds from exec of bin args until it exited successfully.
func execToExit(b *testing.B, bin string, args ...string) float64 {
	b.Helper()
	begin := time.Now()
	if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		b.Fatalf("%s %v: %v\n%s", bin, args, err, out)
	}
	return float64(time.Since(begin).Microseconds()) / 1000
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
