package api

import (
	"errors"
	"log/slog"
	"net"
	"sync/atomic"
	"time"
)

// RetryListener wraps ln so that a failing Accept is logged and retried with back-off instead
// of ending the server: fasthttp returns from Serve on any accept error but a timeout, so
// running out of file descriptors ("too many open files" under a flood of connections) used to
// stop the process. Only a closed listener (shutdown) ends the loop. Like net/http's server, the
// wait starts at 5 ms and doubles up to 1 s while the errors last.
func RetryListener(ln net.Listener, log *slog.Logger) net.Listener {
	return &retryListener{Listener: ln, log: log}
}

type retryListener struct {
	net.Listener
	log    *slog.Logger
	lastAt atomic.Int64 // unix nanos of the last logged accept error: one line per second at most
}

// maxAcceptDelay is the longest wait between two failed accepts.
const maxAcceptDelay = time.Second

// Accept returns the next connection, retrying errors other than a closed listener.
func (l *retryListener) Accept() (net.Conn, error) {
	var delay time.Duration
	for {
		c, err := l.Listener.Accept()
		if err == nil {
			return c, nil
		}
		if errors.Is(err, net.ErrClosed) {
			return nil, err
		}
		delay = min(max(2*delay, 5*time.Millisecond), maxAcceptDelay)
		if now := time.Now().UnixNano(); now-l.lastAt.Load() >= int64(time.Second) {
			l.lastAt.Store(now)
			l.log.Error("accepting a connection failed; retrying", "err", err, "retry_in", delay.String())
		}
		time.Sleep(delay)
	}
}
