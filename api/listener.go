package api

import (
	"errors"
	"log/slog"
	"net"
	"sync"
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

// Listener is ln as the appliance serves it: accept errors retried (RetryListener), at most
// perIP connections from one client address at once (CapPerIP; 0: no cap), and each connection
// knowing whether its client sent anything (NothingRead).
func Listener(ln net.Listener, perIP int, log *slog.Logger) net.Listener {
	return CapPerIP(RetryListener(ln, log), perIP)
}

// NothingRead reports whether c (a connection Listener accepted) has not received a byte: a
// browser's pre-connection, opened in case a request follows, or a port probe. When it times
// out, it made no request, and is answered without a journal entry or an access-log line.
func NothingRead(c net.Conn) bool {
	cc, ok := c.(*countedConn)
	return ok && !cc.read.Load()
}

// CapPerIP wraps ln so that one client address holds at most max connections at once (max <= 0:
// any number): the next is answered 429 in plain text (no request has been read, so no API can
// own the answer) and closed. It replaces fasthttp's MaxConnsPerIP, whose connection wrapper races with the
// server's shutdown, and counts IPv6 clients as well.
func CapPerIP(ln net.Listener, max int) net.Listener {
	return &perIPListener{Listener: ln, max: max, open: map[string]int{}}
}

type perIPListener struct {
	net.Listener
	max  int
	mu   sync.Mutex
	open map[string]int
}

// tooManyFromIP is the answer to a connection over the per-IP cap.
const tooManyFromIP = "HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\n" +
	"Content-Length: 45\r\nRetry-After: 1\r\nConnection: close\r\n\r\ntoo many connections from your address (429)\n"

// Accept returns the next connection within the cap; those over it are answered and closed here.
func (l *perIPListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.max <= 0 { // no cap: the connection is only told what it has read
			return &countedConn{Conn: c, release: func() {}}, nil
		}
		ip := remoteIP(c)
		l.mu.Lock()
		over := l.open[ip] >= l.max
		if !over {
			l.open[ip]++
		}
		l.mu.Unlock()
		if !over {
			return &countedConn{Conn: c, release: func() { l.release(ip) }}, nil
		}
		go refuse(c)
	}
}

func (l *perIPListener) release(ip string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[ip]--; l.open[ip] <= 0 {
		delete(l.open, ip)
	}
}

// refuse answers a connection over the cap and closes it, without waiting long for a client
// that does not read.
func refuse(c net.Conn) {
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = c.Write([]byte(tooManyFromIP))
	_ = c.Close()
}

// remoteIP is the connection's client address without the port.
func remoteIP(c net.Conn) string {
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		return a.IP.String()
	}
	host, _, err := net.SplitHostPort(c.RemoteAddr().String())
	if err != nil {
		return c.RemoteAddr().String()
	}
	return host
}

// countedConn gives its slot back once, on the first Close, and notes its first byte read.
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
	read    atomic.Bool
}

func (c *countedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && !c.read.Load() {
		c.read.Store(true)
	}
	return n, err
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
