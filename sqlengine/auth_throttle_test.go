package sqlengine

import (
	"context"
	"database/sql"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// TestSignInThrottle (issue 32): twelve wrong passwords, then the right one, used to connect.
// With a throttle (here one that locks a user at a host after five failures, as the appliance's
// does), the right password from the guessing host is refused with MySQL's 1129 naming when to
// try again, while the right password from another host (127.0.0.2, also loopback) connects
// at once; a wrong password stays 1045.
func TestSignInThrottle(t *testing.T) {
	th := &fakeThrottle{fails: map[string]int{}}
	m := NewManager(NewMemStore(), Options{MaxInstances: 2, NewThrottle: func() Throttle { return th }})
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
	err = from("127.0.0.1", "first-pw")
	if !isMySQLError(err, 1129) || !strings.Contains(err.Error(), "try again in 30 seconds") {
		t.Fatalf("the right password from the guessing host: %v, want 1129", err)
	}
	if err := from("127.0.0.2", "first-pw"); err != nil {
		t.Fatalf("the right password from another host: %v", err)
	}
}

// fakeThrottle locks a user at a host after five failures, for 30 s.
type fakeThrottle struct {
	mu    sync.Mutex
	fails map[string]int
}

func (f *fakeThrottle) Begin(user, host string) (func(bool), time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fails[user+"@"+host] >= 5 {
		return nil, 30 * time.Second
	}
	return func(ok bool) {
		f.mu.Lock()
		defer f.mu.Unlock()
		if !ok {
			f.fails[user+"@"+host]++
		}
	}, 0
}
