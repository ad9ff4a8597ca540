package buildapi

import (
	"errors"
	"net"
	"syscall"
)

// peerClosed reports whether the client at the other end of conn has closed it, without
// taking anything from it: a non-blocking peek that reads end-of-file means closed; nothing to
// read (EAGAIN) or bytes waiting (a pipelined request) mean open. A connection that is not a
// socket (the in-memory connections of tests) is never seen closed.
func peerClosed(conn net.Conn) bool {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	closed := false
	var buf [1]byte
	_ = raw.Read(func(fd uintptr) bool {
		n, _, err := syscall.Recvfrom(int(fd), buf[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		closed = n == 0 && err == nil || (err != nil && !errors.Is(err, syscall.EAGAIN) && !errors.Is(err, syscall.EINTR))
		return true // never wait for readiness
	})
	return closed
}
