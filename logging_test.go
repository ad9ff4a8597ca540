package main

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLogWriterKeepsEveryLine: lines from many goroutines all reach the output, each whole and
// in each writer's order, by Close.
func TestLogWriterKeepsEveryLine(t *testing.T) {
	var out bytes.Buffer
	lw := newLogWriter(&out)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 5000; i++ {
				fmt.Fprintf(lw, "g%d line %05d %s\n", g, i, strings.Repeat("x", 40))
			}
		}()
	}
	wg.Wait()
	lw.Close()
	next := map[string]int{}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	for _, l := range lines {
		var g string
		var i int
		if _, err := fmt.Sscanf(l, "%s line %d", &g, &i); err != nil || i != next[g] {
			t.Fatalf("line %q out of order or torn (want %s's %d)", l, g, next[g])
		}
		next[g]++
	}
	if len(lines) != 8*5000 {
		t.Fatalf("%d lines, want %d", len(lines), 8*5000)
	}
	fmt.Fprintln(lw, "after close")
	if !strings.HasSuffix(out.String(), "after close\n") {
		t.Fatal("a line after Close was not written")
	}
}

// stuck is a stderr that takes nothing until released.
type stuck struct {
	release chan struct{}
	mu      sync.Mutex
	buf     bytes.Buffer
}

func (s *stuck) Write(p []byte) (int, error) {
	<-s.release
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

// TestLogWriterStuckStderr: with stderr taking nothing, a line waits at most the bound, then is
// dropped; once stderr takes lines again a warning counts the dropped ones.
func TestLogWriterStuckStderr(t *testing.T) {
	out := &stuck{release: make(chan struct{})}
	lw := newLogWriter(out)
	lw.wait = 50 * time.Millisecond
	lw.setLogger(slog.New(slog.NewTextHandler(lw, nil)))
	line := strings.Repeat("y", 1000) + "\n"
	start := time.Now()
	for i := 0; i < 3*logBufferSize/len(line); i++ { // three buffers' worth: the flusher holds one
		lw.Write([]byte(line))
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("writes against a stuck stderr took %v", took)
	}
	close(out.release)
	lw.Close()
	got := out.buf.String()
	if !strings.Contains(got, "log lines dropped") {
		t.Fatal("no warning about the dropped lines")
	}
	if n := strings.Count(got, line); n < logBufferSize/len(line) {
		t.Fatalf("only %d lines written", n)
	}
}
