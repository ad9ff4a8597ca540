package main

import (
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/pocketforge/pocketforge/config"
)

// logWriter holds log output — the access log's line per request above all — in memory and
// writes it out from a goroutine of its own every 100 ms, when half of its buffer is used, and
// on Close. A request's line costs an append under a mutex, never a write syscall; lines are
// handed to stderr in order and none is lost on a clean stop (Close writes what is left). A
// kill -9 may lose the last 100 ms of lines, never data.
//
// Writing out happens outside the lock, from a second buffer, so a slow stderr (a terminal
// being scrolled, a full pipe) does not hold requests while it drains. Only when the buffer
// fills up while stderr still has not taken the previous one does a line wait, for at most
// logWait; after that it is dropped and counted, and so is every line that finds the buffer
// full until stderr takes lines again, when a warning with the count follows. A stderr that
// blocks for good thus costs one request logWait, not every request forever.
type logWriter struct {
	out  io.Writer
	mu   sync.Mutex
	cur  []byte        // lines not yet taken by the flusher
	took chan struct{} // closed when the flusher takes cur (then replaced)
	// spare is the buffer the flusher wrote last, reused as the next cur.
	spare   []byte
	dropped int
	wait    time.Duration // logWait; shorter in tests
	stalled bool          // a line waited logWait in vain: drop at once until the flusher takes
	closed  bool
	log     *slog.Logger // set after newLogger, for the dropped-lines warning
	kick    chan struct{}
	done    chan struct{}
	wg      sync.WaitGroup
}

const (
	logBufferSize = 256 << 10
	logWait       = time.Second
)

func newLogWriter(w io.Writer) *logWriter {
	lw := &logWriter{out: w, wait: logWait, cur: make([]byte, 0, logBufferSize), spare: make([]byte, 0, logBufferSize),
		took: make(chan struct{}), kick: make(chan struct{}, 1), done: make(chan struct{})}
	lw.wg.Add(1)
	go func() {
		defer lw.wg.Done()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
			case <-lw.kick:
			case <-lw.done:
				lw.flush()
				lw.flush() // the warning about dropped lines, if the first one wrote one
				return
			}
			lw.flush()
		}
	}()
	return lw
}

func (lw *logWriter) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.closed {
		return lw.out.Write(p)
	}
	var timeout <-chan time.Time
	for len(lw.cur) > 0 && len(lw.cur)+len(p) > logBufferSize {
		if lw.stalled { // a line already waited in vain since stderr last took any
			lw.dropped++
			return len(p), nil
		}
		if timeout == nil {
			t := time.NewTimer(lw.wait)
			defer t.Stop()
			timeout = t.C
		}
		took := lw.took
		lw.wake()
		lw.mu.Unlock()
		select {
		case <-took:
			lw.mu.Lock()
		case <-timeout:
			lw.mu.Lock()
			lw.dropped++
			lw.stalled = true
			return len(p), nil
		}
	}
	lw.cur = append(lw.cur, p...)
	if len(lw.cur) > logBufferSize/2 {
		lw.wake()
	}
	return len(p), nil
}

// wake has the flusher write out now rather than at its next tick.
func (lw *logWriter) wake() {
	select {
	case lw.kick <- struct{}{}:
	default:
	}
}

// flush takes the lines gathered so far and writes them out, outside the lock.
func (lw *logWriter) flush() {
	lw.mu.Lock()
	buf, dropped := lw.cur, lw.dropped
	lw.cur, lw.spare, lw.dropped, lw.stalled = lw.spare[:0], nil, 0, false
	close(lw.took)
	lw.took = make(chan struct{})
	lw.mu.Unlock()
	if len(buf) > 0 {
		_, _ = lw.out.Write(buf)
	}
	lw.mu.Lock()
	if cap(buf) > 2*logBufferSize { // one huge line (a stack) is not kept
		buf = make([]byte, 0, logBufferSize)
	}
	lw.spare = buf[:0]
	log := lw.log
	lw.mu.Unlock()
	if dropped > 0 && log != nil {
		log.Warn("log lines dropped: stderr took nothing for a second", "lines", dropped)
	}
}

// Close writes out what is left and stops the flusher; later lines go straight to stderr.
func (lw *logWriter) Close() {
	close(lw.done)
	lw.wg.Wait()
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.closed = true
	if len(lw.cur) > 0 { // written between the flusher's last turn and now
		_, _ = lw.out.Write(lw.cur)
		lw.cur = nil
	}
}

// setLogger gives the writer the logger that writes through it, for its dropped-lines warning.
func (lw *logWriter) setLogger(log *slog.Logger) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.log = log
}

// newLogger builds the process's slog logger as --log-level and --log-format say.
func newLogger(cfg *config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
