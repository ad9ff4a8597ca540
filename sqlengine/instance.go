package sqlengine

import (
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/server"
	"github.com/dolthub/vitess/go/mysql"
)

// instance is one running database: its engine, its wire server and what guards them.
type instance struct {
	id    uint64
	store Store
	log   *slog.Logger
	limit int64 // memory bound in bytes (0: none)

	acct  *account
	allow atomic.Pointer[[]netip.Prefix]
	conns *connSet
	eng   *engine
	srv   *server.Server

	// mu orders statements: reads share it, writes, dumps' consistency, restores and Stop hold
	// it alone.
	mu      sync.RWMutex
	stopped bool
	size    atomic.Int64 // bytes of the last saved state: the data-size estimate
}

// token is a statement's hold on the instance.
type token struct {
	write bool
	end   func()
}

// begin admits a statement of kind k: it refuses account statements, growing writes past the
// memory bound and anything once the instance has stopped, and takes the lock k needs.
func (in *instance) begin(k stmtKind) (token, error) {
	switch k {
	case kindAccount:
		return token{}, errAccount()
	case kindUnkept:
		return token{}, errUnkept()
	}
	if k == kindRead {
		in.mu.RLock()
		if in.stopped {
			in.mu.RUnlock()
			return token{}, errStopped()
		}
		return token{end: in.mu.RUnlock}, nil
	}
	in.mu.Lock()
	if in.stopped {
		in.mu.Unlock()
		return token{}, errStopped()
	}
	if k == kindWrite && in.limit > 0 && in.size.Load() >= in.limit {
		in.mu.Unlock()
		return token{}, mysql.NewSQLError(mysql.ERRecordFileFull, mysql.SSUnknownSQLState,
			"The table is full: this database holds about %d bytes of data, at its memory bound of %d bytes; DELETE, DROP or TRUNCATE to make room",
			in.size.Load(), in.limit)
	}
	return token{write: true, end: in.mu.Unlock}, nil
}

// persist saves the engine's data as the instance's state; the caller holds mu alone. If the
// save fails, the engine is put back to the last saved state (the write is undone), and the
// client is told the write did not happen.
func (in *instance) persist() error {
	state, err := in.eng.dump()
	if err == nil {
		err = in.store.Save(in.id, state)
	}
	if err == nil {
		in.size.Store(int64(len(state)))
		return nil
	}
	in.log.Error("sqlengine: saving failed; undoing the write", "instance", in.id, "err", err)
	prev, lerr := in.store.Load(in.id)
	if lerr == nil {
		lerr = in.eng.replace(orEmpty(prev), []byte(dumpHeader))
	}
	if lerr != nil {
		in.log.Error("sqlengine: undoing failed", "instance", in.id, "err", lerr)
	}
	return mysql.NewSQLError(erGetErrno, mysql.SSUnknownSQLState,
		"Got error from storage engine: the write was not saved and is undone (%v)", err)
}

// recoverTo turns a panic in the engine into an error answered to the client, logged with its
// stack; vitess would otherwise close the connection.
func (in *instance) recoverTo(err *error) {
	if p := recover(); p != nil {
		in.log.Error("sqlengine: panic in a statement", "instance", in.id, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		*err = mysql.NewSQLError(mysql.ERUnknownError, mysql.SSUnknownSQLState, "internal error: %v", p)
	}
}

// stop closes the listener and every open connection, after any statement under way has ended,
// so nothing is written to the Store once stop returns.
func (in *instance) stop() {
	in.mu.Lock()
	in.stopped = true
	in.mu.Unlock()
	_ = in.srv.Close()
	in.conns.closeAll()
	_ = in.eng.eng.Close()
}

// orEmpty is state, or the empty dump for an instance never saved.
func orEmpty(state []byte) []byte {
	if len(state) == 0 {
		return []byte(dumpHeader)
	}
	return state
}

// connSet tracks an instance's open connections, so Stop can close them (vitess closes only
// its listener).
type connSet struct {
	mu     sync.Mutex
	m      map[*trackedConn]struct{}
	closed bool // after closeAll: a connection accepted late is closed at once
}

type trackedConn struct {
	net.Conn
	set  *connSet
	once sync.Once
}

func (s *connSet) add(c net.Conn) net.Conn {
	t := &trackedConn{Conn: c, set: s}
	s.mu.Lock()
	closed := s.closed
	if !closed {
		s.m[t] = struct{}{}
	}
	s.mu.Unlock()
	if closed {
		_ = c.Close()
	}
	return t
}

func (t *trackedConn) Close() error {
	err := t.Conn.Close()
	t.once.Do(func() {
		t.set.mu.Lock()
		delete(t.set.m, t)
		t.set.mu.Unlock()
	})
	return err
}

func (s *connSet) closeAll() {
	s.mu.Lock()
	s.closed = true
	all := make([]*trackedConn, 0, len(s.m))
	for c := range s.m {
		all = append(all, c)
	}
	s.mu.Unlock()
	for _, c := range all {
		_ = c.Close()
	}
}

// erGetErrno is MySQL's ER_GET_ERRNO, "Got error from storage engine".
const erGetErrno = 1030
