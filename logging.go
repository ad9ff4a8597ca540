package main

import (
	"bufio"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/pocketforge/pocketforge/config"
)

// logWriter buffers log output and flushes it every 100 ms and on Close: one access-log line per
// request must not cost one write syscall per request. A kill -9 may lose the last 100 ms of
// log lines, never data.
type logWriter struct {
	mu   sync.Mutex
	buf  *bufio.Writer
	done chan struct{}
	wg   sync.WaitGroup
}

func newLogWriter(w io.Writer) *logWriter {
	lw := &logWriter{buf: bufio.NewWriterSize(w, 64<<10), done: make(chan struct{})}
	lw.wg.Add(1)
	go func() {
		defer lw.wg.Done()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				lw.flush()
			case <-lw.done:
				lw.flush()
				return
			}
		}
	}()
	return lw
}

func (lw *logWriter) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.buf.Write(p)
}

func (lw *logWriter) flush() {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	_ = lw.buf.Flush()
}

// Close flushes and stops the flusher.
func (lw *logWriter) Close() {
	close(lw.done)
	lw.wg.Wait()
}

// newLogger builds the process's slog logger as --log-level and --log-format say.
func newLogger(cfg *config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
