package sqlengine

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/dolthub/go-mysql-server/memory"
	"github.com/dolthub/go-mysql-server/server"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
)

// ErrCapacity is Start's refusal when MaxInstances instances already listen, or the memory
// they reserve would pass Options.MaxMemory: the real service's "not enough capacity".
var ErrCapacity = errors.New("sqlengine: no capacity for another database instance")

// ErrNotRunning is the answer of the calls that need a listening instance (SetPassword,
// SetAllowList) for one that is not: Start takes the current values anyway.
var ErrNotRunning = errors.New("sqlengine: instance is not running")

// ErrClosed is every call's answer after Close.
var ErrClosed = errors.New("sqlengine: manager closed")

// Options bound a Manager.
type Options struct {
	// MaxInstances caps how many instances listen at once (0: no cap).
	MaxInstances int
	// MaxMemory caps the memory all listening instances may reserve together, in bytes (0: no
	// cap). Each instance reserves its Instance.MaxMemory, or if it has none MaxMemory/
	// MaxInstances (all of MaxMemory when MaxInstances is 0).
	MaxMemory int64
	// Log receives errors worth an operator's eye (failed saves, recovered panics); nil: none.
	Log *slog.Logger
	// NewThrottle gives each instance's listener the throttle of its sign-ins; nil: none.
	NewThrottle func() Throttle
	// Now is the clock NOW(), CURRENT_TIMESTAMP and their kin read (the appliance's, so
	// --dev-clock moves them too); nil: the wall clock.
	Now func() time.Time
}

// Instance is what Start needs to serve one database.
type Instance struct {
	ID uint64
	// Addr is the listen address: "127.0.0.1:0" for any free loopback port, or host:port;
	// empty means "127.0.0.1:0" (never all interfaces by accident).
	Addr string
	// Version is the MySQL version the instance answers everywhere — in the handshake,
	// version() and @@version (issue 32: the API said 8.0.26, version() 8.0.31, the handshake
	// 8.0.33); "" keeps the engine's own.
	Version string
	// RootUser and RootPassword are the only account (the credentials view's).
	RootUser, RootPassword string
	// AllowList holds the prefixes clients may connect from; see allowlist.go for the rule
	// (empty: nobody, loopback included).
	AllowList []netip.Prefix
	// TLS carries the server certificate (ServerCert); nil: no TLS offered.
	TLS *tls.Config
	// RequireTLS refuses clients that do not switch to TLS (the API's ssl_connection).
	RequireTLS bool
	// MaxMemory bounds this instance's data, in bytes (0: the Manager's share).
	MaxMemory int64
}

// Manager runs the database instances of one appliance: it starts and stops their listeners,
// keeps each one's data in the Store and bounds how many run and how much they hold. Its
// methods are safe for concurrent use; the lifecycle calls of one instance (Start, Stop,
// Restore, Remove) are expected one at a time, as the instance's status orders them in the
// cloud domain (a Restore of a stopped instance racing its Start may be loaded or not).
type Manager struct {
	store Store
	opts  Options
	log   *slog.Logger

	mu       sync.Mutex
	running  map[uint64]*instance
	starting map[uint64]bool
	reserved int64
	closed   bool
}

// NewManager returns a Manager keeping instances' data in store.
func NewManager(store Store, opts Options) *Manager {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	quietEngine()
	return &Manager{store: store, opts: opts, log: log, running: map[uint64]*instance{}, starting: map[uint64]bool{}}
}

// Start serves inst on its address, with the data its Store holds (a new, empty instance with
// one database, defaultdb, if none), and returns the address it listens on. Starting an
// instance already running returns its address and changes nothing.
func (m *Manager) Start(inst Instance) (net.Addr, error) {
	limit, addr, err := m.reserve(inst)
	if err != nil || addr != nil {
		return addr, err
	}
	in, err := m.open(inst, limit)
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.starting, inst.ID)
	if err != nil || m.closed {
		m.reserved -= limit
		if err == nil {
			in.stop()
			err = ErrClosed
		}
		return nil, err
	}
	m.running[inst.ID] = in
	go func() { _ = in.srv.Start() }()
	return in.srv.Listener.Addr(), nil
}

// reserve takes a place and memory for inst and returns its memory bound, or the address it
// already listens on.
func (m *Manager) reserve(inst Instance) (int64, net.Addr, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case m.closed:
		return 0, nil, ErrClosed
	case m.running[inst.ID] != nil:
		return 0, m.running[inst.ID].srv.Listener.Addr(), nil
	case m.starting[inst.ID]:
		return 0, nil, fmt.Errorf("sqlengine: instance %d is already starting", inst.ID)
	}
	n := len(m.running) + len(m.starting)
	if m.opts.MaxInstances > 0 && n >= m.opts.MaxInstances {
		return 0, nil, fmt.Errorf("%w: %d of %d instances already listen", ErrCapacity, n, m.opts.MaxInstances)
	}
	limit := inst.MaxMemory
	if limit == 0 && m.opts.MaxMemory > 0 {
		limit = m.opts.MaxMemory
		if m.opts.MaxInstances > 0 {
			limit /= int64(m.opts.MaxInstances)
		}
	}
	if m.opts.MaxMemory > 0 && m.reserved+limit > m.opts.MaxMemory {
		return 0, nil, fmt.Errorf("%w: %d of %d bytes of memory already reserved, %d more asked", ErrCapacity, m.reserved, m.opts.MaxMemory, limit)
	}
	m.reserved += limit
	m.starting[inst.ID] = true
	return limit, nil, nil
}

// open loads inst's data into a new engine and builds its wire server around it.
func (m *Manager) open(inst Instance, limit int64) (*instance, error) {
	state, err := m.store.Load(inst.ID)
	if err != nil {
		return nil, fmt.Errorf("sqlengine: load instance %d: %w", inst.ID, err)
	}
	in := &instance{id: inst.ID, store: m.store, log: m.log, limit: limit, eng: newEngine(),
		acct: newAccount(inst.RootUser, inst.RootPassword, m.throttle()), conns: &connSet{m: map[*trackedConn]struct{}{}}}
	list := append([]netip.Prefix(nil), inst.AllowList...)
	in.allow.Store(&list)
	if len(state) == 0 {
		if _, _, err := in.eng.query(in.eng.context(), "CREATE DATABASE "+defaultDB); err != nil {
			return nil, err
		}
		if err := in.persist(); err != nil {
			return nil, err
		}
	} else {
		if err := in.eng.load(state); err != nil {
			return nil, fmt.Errorf("sqlengine: load instance %d: %w", inst.ID, err)
		}
		in.size.Store(int64(len(state)))
	}
	if inst.Addr == "" {
		inst.Addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", inst.Addr)
	if err != nil {
		return nil, fmt.Errorf("sqlengine: instance %d: %w", inst.ID, err)
	}
	auth := newAuthServer(in.acct)
	cfg := server.Config{
		Version:                inst.Version,
		Listener:               guardListener{Listener: ln, list: &in.allow, conns: in.conns},
		TLSConfig:              inst.TLS,
		RequireSecureTransport: inst.RequireTLS && inst.TLS != nil,
		ProtocolListenerFactory: func(cfg server.Config, lc mysql.ListenerConfig, sel server.ServerEventListener) (server.ProtocolListener, error) {
			lc.AuthServer = auth
			return server.MySQLProtocolListenerFactory(cfg, lc, sel)
		},
	}
	wrap := func(h mysql.Handler) (mysql.Handler, error) { return wireHandler{Handler: h, inst: in}, nil }
	in.srv, err = server.NewServerWithHandler(cfg, in.eng.eng, m.contexts, sessionsAnswering(inst.Version, in.eng.pro), nil, wrap)
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("sqlengine: instance %d: %w", inst.ID, err)
	}
	return in, nil
}

// throttle is a new instance's sign-in throttle (nil: none).
func (m *Manager) throttle() Throttle {
	if m.opts.NewThrottle == nil {
		return nil
	}
	return m.opts.NewThrottle()
}

// sessionsAnswering builds pro's sessions with version as their @@version (what version()
// reads), "" the engine's own. The variable is global and read-only in MySQL; a session is
// initialised with it as a new session starts.
func sessionsAnswering(version string, pro *memory.DbProvider) server.SessionBuilder {
	build := memory.NewSessionBuilder(pro)
	if version == "" {
		return build
	}
	return func(ctx context.Context, conn *mysql.Conn, addr string) (sql.Session, error) {
		sess, err := build(ctx, conn, addr)
		if err != nil {
			return nil, err
		}
		if err := sess.InitSessionVariable(sql.NewContext(ctx, sql.WithSession(sess)), "version", version); err != nil {
			return nil, err
		}
		return sess, nil
	}
}

// contexts makes each statement's context, its query time (what NOW() and CURRENT_TIMESTAMP
// answer) read from the manager's clock.
func (m *Manager) contexts(ctx context.Context, opts ...sql.ContextOption) *sql.Context {
	c := sql.NewContext(ctx, opts...)
	if m.opts.Now != nil {
		c.SetQueryTime(m.opts.Now())
	}
	return c
}
