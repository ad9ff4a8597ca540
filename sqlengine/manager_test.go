package sqlengine

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
)

// TestCapacity: the (MaxInstances+1)th Start is ErrCapacity, and so is one whose memory would
// pass MaxMemory; a Stop frees the place.
func TestCapacity(t *testing.T) {
	m := NewManager(NewMemStore(), Options{MaxInstances: 2, MaxMemory: 2 << 20})
	defer m.Close()
	for id := uint64(1); id <= 2; id++ {
		if _, err := m.Start(testInstance(id)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Start(testInstance(3)); !errors.Is(err, ErrCapacity) {
		t.Fatalf("third start: %v", err)
	}
	if _, err := m.Start(testInstance(1)); err != nil {
		t.Fatalf("starting a running instance again: %v", err)
	}
	m.Stop(2)
	big := testInstance(3)
	big.MaxMemory = 2 << 20 // with instance 1's 1 MiB share, over the 2 MiB
	if _, err := m.Start(big); !errors.Is(err, ErrCapacity) {
		t.Fatalf("start over the memory cap: %v", err)
	}
	if _, err := m.Start(testInstance(3)); err != nil {
		t.Fatalf("start after a stop: %v", err)
	}
}

// TestMemoryBound: past its bound an instance refuses growing writes with MySQL's "table is
// full" (1114), still serves reads and deletes, and takes writes again once below it.
func TestMemoryBound(t *testing.T) {
	m := NewManager(NewMemStore(), Options{})
	defer m.Close()
	inst := testInstance(1)
	inst.MaxMemory = 16 << 10
	addr, err := m.Start(inst)
	if err != nil {
		t.Fatal(err)
	}
	db := mustConnect(t, addr.String(), "linroot", "first-pw", "")
	exec(t, db, "CREATE TABLE pets (id INT PRIMARY KEY, name TEXT)")
	pad := strings.Repeat("x", 1000)
	var full error
	for i := 0; i < 100 && full == nil; i++ {
		_, full = db.Exec("INSERT INTO pets VALUES (?, ?)", i, pad)
	}
	if !isMySQLError(full, 1114) {
		t.Fatalf("got %v, want error 1114", full)
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM pets").Scan(&n); err != nil || n < 10 {
		t.Fatalf("reads past the bound: %d %v", n, err)
	}
	exec(t, db, "DELETE FROM pets WHERE id > 2")
	exec(t, db, "INSERT INTO pets VALUES (1000, 'small')")
}

// TestFailedSaveIsNotAcknowledged: when the Store refuses a save, the client gets an error,
// not an OK, and the write is undone.
func TestFailedSaveIsNotAcknowledged(t *testing.T) {
	store := NewMemStore()
	m := NewManager(store, Options{})
	defer m.Close()
	addr, err := m.Start(testInstance(1))
	if err != nil {
		t.Fatal(err)
	}
	db := mustConnect(t, addr.String(), "linroot", "first-pw", "")
	exec(t, db, "CREATE TABLE pets (id INT PRIMARY KEY, name TEXT)")
	exec(t, db, "INSERT INTO pets VALUES (1, 'Rex')")
	store.mu.Lock()
	store.FailSave = errors.New("disk full")
	store.mu.Unlock()
	if _, err := db.Exec("INSERT INTO pets VALUES (2, 'Tom')"); !isMySQLError(err, 1030) {
		t.Fatalf("got %v, want error 1030", err)
	}
	store.mu.Lock()
	store.FailSave = nil
	store.mu.Unlock()
	if got := names(t, db); got != "Rex" {
		t.Fatalf("after a failed save: %q", got)
	}
}

// TestConcurrentClients: writers and readers on several connections at once; every
// acknowledged row is there after a restart.
func TestConcurrentClients(t *testing.T) {
	store := NewMemStore()
	m := NewManager(store, Options{})
	defer m.Close()
	addr, err := m.Start(testInstance(1))
	if err != nil {
		t.Fatal(err)
	}
	db := mustConnect(t, addr.String(), "linroot", "first-pw", "")
	db.SetMaxOpenConns(4)
	exec(t, db, "CREATE TABLE pets (id INT PRIMARY KEY, name TEXT)")
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				if _, err := db.Exec("INSERT INTO pets VALUES (?, 'p')", w*100+i); err != nil {
					t.Error(err)
				}
				var n int
				if err := db.QueryRow("SELECT COUNT(*) FROM pets").Scan(&n); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	m.Stop(1)
	addr, err = m.Start(testInstance(1))
	if err != nil {
		t.Fatal(err)
	}
	db = mustConnect(t, addr.String(), "linroot", "first-pw", "")
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM pets").Scan(&n); err != nil || n != 40 {
		t.Fatalf("after restart: %d rows, %v", n, err)
	}
}

// TestMalformedPackets: garbage instead of a handshake response, or a truncated packet, is
// answered or dropped; the instance goes on serving.
func TestMalformedPackets(t *testing.T) {
	m := NewManager(NewMemStore(), Options{})
	defer m.Close()
	addr, err := m.Start(testInstance(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, junk := range [][]byte{
		{0xff, 0xff, 0xff, 0x01, 0x00},
		[]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
		{0x05, 0x00, 0x00, 0x01, 0x03, 'S'},
		{0x01, 0x00, 0x00, 0x01},
	} {
		c, err := net.DialTimeout("tcp", addr.String(), 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(2 * time.Second))
		buf := make([]byte, 4096)
		_, _ = c.Read(buf) // the server's greeting
		_, _ = c.Write(junk)
		_, _ = c.Read(buf)
		c.Close()
	}
	db := mustConnect(t, addr.String(), "linroot", "first-pw", "")
	exec(t, db, "CREATE TABLE still (id INT)")
}

// panicky is a handler whose every query panics.
type panicky struct{ mysql.Handler }

func (panicky) ComQuery(context.Context, *mysql.Conn, string, mysql.ResultSpoolFn) error {
	panic("boom")
}

// TestPanicIsAnError: a panic inside the engine becomes an error for that statement.
func TestPanicIsAnError(t *testing.T) {
	in := &instance{log: NewManager(NewMemStore(), Options{}).log}
	h := wireHandler{Handler: panicky{}, inst: in}
	err := h.ComQuery(context.Background(), &mysql.Conn{}, "SELECT 1", func(*sqltypes.Result, bool) error { return nil })
	var se *mysql.SQLError
	if !errors.As(err, &se) || se.Number() != mysql.ERUnknownError {
		t.Fatalf("got %v", err)
	}
	if !in.mu.TryLock() {
		t.Fatal("the instance stayed locked after the panic")
	}
}

// TestTransactionsSaveAtCommit: writes inside a transaction are saved when it commits, with
// autocommit off and with BEGIN alike, and a rolled-back one leaves nothing behind.
func TestTransactionsSaveAtCommit(t *testing.T) {
	store := NewMemStore()
	m := NewManager(store, Options{})
	defer m.Close()
	addr, err := m.Start(testInstance(1))
	if err != nil {
		t.Fatal(err)
	}
	db := mustConnect(t, addr.String(), "linroot", "first-pw", "")
	exec(t, db, "CREATE TABLE pets (id INT PRIMARY KEY, name TEXT)")
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"SET autocommit = 0", "INSERT INTO pets VALUES (1, 'Rex')", "COMMIT",
		"INSERT INTO pets VALUES (2, 'Gone')", "ROLLBACK", "SET autocommit = 1",
		"BEGIN", "INSERT INTO pets VALUES (3, 'Tom')", "COMMIT",
		"START TRANSACTION", "INSERT INTO pets VALUES (4, 'Max')",
	} {
		if _, err := conn.ExecContext(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if d, _ := store.Load(1); strings.Contains(string(d), "'Max'") {
		t.Fatal("an uncommitted row was saved")
	}
	if _, err := conn.ExecContext(context.Background(), "COMMIT"); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	m.Stop(1)
	addr, err = m.Start(testInstance(1))
	if err != nil {
		t.Fatal(err)
	}
	db = mustConnect(t, addr.String(), "linroot", "first-pw", "")
	if got := names(t, db); got != "Rex,Tom,Max" {
		t.Fatalf("after restart: %q", got)
	}
}
