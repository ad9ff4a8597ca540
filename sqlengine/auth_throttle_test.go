package sqlengine

import (
	"context"
	"database/sql"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// TestSignInThrottle (issue 32): twelve wrong passwords, then the right one, used to connect.
// Now five wrong passwords for the root user from one host lock it at that host — the right
// password from there is refused with MySQL's 1129 — while the right password from another
// host (127.0.0.2, also loopback) connects at once; the lock passes with the clock.
func TestSignInThrottle(t *testing.T) {
	var clock atomic.Int64 // nanoseconds since 2026-12-02, read by the server's goroutines
	start := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	m := NewManager(NewMemStore(), Options{MaxInstances: 2, Now: func() time.Time { return start.Add(time.Duration(clock.Load())) }})
	defer m.Close()
	addr, err := m.Start(testInstance(9))
	if err != nil {
		t.Fatal(err)
	}
	from := func(src, pw string) error {
		cfg := mysql.NewConfig()
		cfg.Net, cfg.Addr, cfg.User, cfg.Passwd, cfg.DBName = "from-"+src, addr.String(), "linroot", pw, "defaultdb"
		cfg.Timeout = 5 * time.Second
		c, err := mysql.NewConnector(cfg)
		if err != nil {
			t.Fatal(err)
		}
		db := sql.OpenDB(c)
		defer db.Close()
		return db.Ping()
	}
	for _, src := range []string{"127.0.0.1", "127.0.0.2"} {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
		mysql.RegisterDialContext("from-"+src, func(ctx context.Context, addr string) (net.Conn, error) {
			return d.DialContext(ctx, "tcp", addr)
		})
	}
	for i := range 5 {
		if err := from("127.0.0.1", "guess"); !isMySQLError(err, 1045) {
			t.Fatalf("wrong password %d: %v, want 1045", i+1, err)
		}
	}
	if err := from("127.0.0.1", "first-pw"); !isMySQLError(err, 1129) {
		t.Fatalf("the right password from the guessing host: %v, want 1129", err)
	}
	if err := from("127.0.0.2", "first-pw"); err != nil {
		t.Fatalf("the right password from another host: %v", err)
	}
	clock.Add(int64(31 * time.Second))
	if err := from("127.0.0.1", "first-pw"); err != nil {
		t.Fatalf("after the lock passed: %v", err)
	}
}
