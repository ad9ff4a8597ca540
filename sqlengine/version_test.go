package sqlengine

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"
)

// TestOneVersion (issue 32): an instance answers the version its engine id names — in the
// handshake, version() and @@version alike.
func TestOneVersion(t *testing.T) {
	m := NewManager(NewMemStore(), Options{MaxInstances: 2})
	defer m.Close()
	inst := testInstance(11)
	inst.Version = "8.0.26"
	addr, err := m.Start(inst)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.DialTimeout("tcp", addr.String(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	// the whole first packet: its 4-byte header says how long it is (one Read may return less)
	buf := make([]byte, 4, 256)
	if _, err := io.ReadFull(conn, buf); err != nil {
		t.Fatal(err)
	}
	size := int(buf[0]) | int(buf[1])<<8 | int(buf[2])<<16
	buf = buf[:4+size]
	if _, err := io.ReadFull(conn, buf[4:]); err != nil {
		t.Fatal(err)
	}
	n := len(buf)
	conn.Close()
	// a packet header (4 bytes), protocol version 10, then the server version, NUL-terminated
	if n < 6 || buf[4] != 10 {
		t.Fatalf("handshake: % x", buf[:n])
	}
	if v, _, _ := bytes.Cut(buf[5:n], []byte{0}); string(v) != "8.0.26" {
		t.Fatalf("handshake version %q", v)
	}
	db := mustConnect(t, addr.String(), "linroot", "first-pw", "")
	// (@@global.version is the engine's one process-wide value: README names the difference)
	for _, q := range []string{"SELECT version()", "SELECT @@version", "SELECT @@session.version"} {
		var v string
		if err := db.QueryRow(q).Scan(&v); err != nil || v != "8.0.26" {
			t.Errorf("%s: %q %v", q, v, err)
		}
	}
}

// TestQueryTimeFollowsTheClock (issue 32): NOW() and CURRENT_TIMESTAMP read the manager's
// clock (the appliance's), so --dev-clock moves them too.
func TestQueryTimeFollowsTheClock(t *testing.T) {
	at := time.Date(2031, 7, 4, 12, 30, 0, 0, time.UTC)
	m := NewManager(NewMemStore(), Options{MaxInstances: 2, Now: func() time.Time { return at }})
	defer m.Close()
	addr, err := m.Start(testInstance(12))
	if err != nil {
		t.Fatal(err)
	}
	db := mustConnect(t, addr.String(), "linroot", "first-pw", "")
	for _, q := range []string{"SELECT DATE_FORMAT(NOW(), '%Y-%m-%d %H:%i')", "SELECT DATE_FORMAT(CURRENT_TIMESTAMP, '%Y-%m-%d %H:%i')", "SELECT DATE_FORMAT(UTC_TIMESTAMP(), '%Y-%m-%d %H:%i')"} {
		var v string
		if err := db.QueryRow(q).Scan(&v); err != nil || v != "2031-07-04 12:30" {
			t.Errorf("%s: %q %v", q, v, err)
		}
	}
}
