package sqlengine

import (
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// loopback is an allow list holding the test's own client.
var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}

// testCA is one CA for the package's tests (made once: key generation is the slow part).
var testCA = func() (ca struct{ cert, key []byte }) {
	var err error
	ca.cert, ca.key, err = NewCA("test", time.Now())
	if err != nil {
		panic(err)
	}
	return ca
}()

// serverTLS is a server certificate for 127.0.0.1 signed by testCA.
func serverTLS(t testing.TB) *tls.Config {
	t.Helper()
	cert, err := ServerCert(testCA.cert, testCA.key, []string{"127.0.0.1", "localhost"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}}
}

var tlsNames atomic.Int64

// clientTLS registers a go-sql-driver TLS config that trusts only testCA and returns its name.
func clientTLS(t testing.TB) string {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(testCA.cert) {
		t.Fatal("CA PEM")
	}
	name := fmt.Sprintf("sqlengine-test-%d", tlsNames.Add(1))
	if err := mysql.RegisterTLSConfig(name, &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	return name
}

// connect opens a client on addr as user/pw (TLS verifying testCA when tlsName is set) and
// pings, so a refused handshake shows as the error.
func connect(t testing.TB, addr, user, pw, tlsName string) (*sql.DB, error) {
	t.Helper()
	cfg := mysql.NewConfig()
	cfg.Net, cfg.Addr, cfg.User, cfg.Passwd, cfg.DBName = "tcp", addr, user, pw, "defaultdb"
	cfg.TLSConfig = tlsName
	cfg.Timeout = 5 * time.Second
	c, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	t.Cleanup(func() { db.Close() })
	return db, nil
}

func mustConnect(t testing.TB, addr, user, pw, tlsName string) *sql.DB {
	t.Helper()
	db, err := connect(t, addr, user, pw, tlsName)
	if err != nil {
		t.Fatalf("connect %s as %s: %v", addr, user, err)
	}
	return db
}

func exec(t testing.TB, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// names returns the name column of t, in id order, joined by commas.
func names(t testing.TB, db *sql.DB) string {
	t.Helper()
	rows, err := db.Query("SELECT name FROM pets ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return strings.Join(out, ",")
}

func testInstance(id uint64) Instance {
	return Instance{ID: id, Addr: "127.0.0.1:0", RootUser: "linroot", RootPassword: "first-pw", AllowList: loopback}
}

// TestLifecycle walks an instance through the scenario: TLS login, a table, a dump,
// more rows, a restore, stop and start, a new Manager, a password change and removal.
func TestLifecycle(t *testing.T) {
	store := NewMemStore()
	m := NewManager(store, Options{MaxInstances: 4})
	defer m.Close()
	inst := testInstance(7)
	inst.TLS, inst.RequireTLS = serverTLS(t), true
	addr, err := m.Start(inst)
	if err != nil {
		t.Fatal(err)
	}
	tlsName := clientTLS(t)
	db := mustConnect(t, addr.String(), "linroot", "first-pw", tlsName)
	var cipher, version string
	if err := db.QueryRow("SHOW STATUS LIKE 'Ssl_cipher'").Scan(&version, &cipher); err != nil || cipher == "" {
		t.Logf("Ssl_cipher not reported (%v); TLS is checked by RequireTLS below", err)
	}
	exec(t, db, "CREATE TABLE pets (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, photo BLOB, born DATETIME, w DECIMAL(6,2))")
	exec(t, db, "INSERT INTO pets VALUES (1, 'Rex', X'00FF0A27', '2020-01-02 03:04:05', 12.50), (2, 'it''s \\\\ \"odd\"\n', NULL, NULL, NULL)")
	backup, err := m.Dump(inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	first := names(t, db)
	exec(t, db, "INSERT INTO pets (id, name) VALUES (?, ?)", 3, "Tom")
	exec(t, db, "CREATE TABLE later (x INT)")
	if got := names(t, db); got != first+",Tom" {
		t.Fatalf("after insert: %q", got)
	}
	if err := m.Restore(inst.ID, backup); err != nil {
		t.Fatal(err)
	}
	if got := names(t, db); got != first {
		t.Fatalf("after restore: %q, want %q", got, first)
	}
	if _, err := db.Exec("SELECT * FROM later"); err == nil {
		t.Fatal("table created after the backup survived the restore")
	}
	var photo []byte
	if err := db.QueryRow("SELECT photo FROM pets WHERE id = 1").Scan(&photo); err != nil || string(photo) != "\x00\xff\n'" {
		t.Fatalf("blob after restore: %q %v", photo, err)
	}

	// Without TLS the instance refuses (RequireTLS).
	if _, err := connect(t, addr.String(), "linroot", "first-pw", ""); err == nil {
		t.Fatal("plain connection accepted although TLS is required")
	}

	// Stop, then Start: the data is still there.
	db.Close()
	if err := m.Stop(inst.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := connect(t, addr.String(), "linroot", "first-pw", tlsName); err == nil {
		t.Fatal("stopped instance still answers")
	}
	addr, err = m.Start(inst)
	if err != nil {
		t.Fatal(err)
	}
	db = mustConnect(t, addr.String(), "linroot", "first-pw", tlsName)
	if got := names(t, db); got != first {
		t.Fatalf("after restart: %q", got)
	}
	exec(t, db, "UPDATE pets SET name = 'Max' WHERE id = 1")
	db.Close()

	// A new Manager over the same Store sees the acknowledged update.
	m.Close()
	m2 := NewManager(store, Options{MaxInstances: 4})
	defer m2.Close()
	addr, err = m2.Start(inst)
	if err != nil {
		t.Fatal(err)
	}
	db = mustConnect(t, addr.String(), "linroot", "first-pw", tlsName)
	if got := names(t, db); !strings.HasPrefix(got, "Max,") {
		t.Fatalf("after a new manager: %q", got)
	}

	// SetPassword: the old password is refused, the new one accepted.
	if err := m2.SetPassword(inst.ID, "second-pw"); err != nil {
		t.Fatal(err)
	}
	_, err = connect(t, addr.String(), "linroot", "first-pw", tlsName)
	if !isMySQLError(err, 1045) {
		t.Fatalf("old password: %v, want error 1045", err)
	}
	mustConnect(t, addr.String(), "linroot", "second-pw", tlsName)
	if _, err := connect(t, addr.String(), "nobody", "second-pw", tlsName); !isMySQLError(err, 1045) {
		t.Fatalf("unknown user: %v, want error 1045", err)
	}

	// Remove deletes the data.
	if err := m2.Remove(inst.ID); err != nil {
		t.Fatal(err)
	}
	if store.Has(inst.ID) {
		t.Fatal("data left after Remove")
	}
	if _, err := connect(t, addr.String(), "linroot", "second-pw", tlsName); err == nil {
		t.Fatal("removed instance still answers")
	}
}

func isMySQLError(err error, code uint16) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && me.Number == code
}
