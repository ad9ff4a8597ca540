package cloudsvc_test

import (
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
)

// sqlWorld is the demo world with connectable sqldb instances: at most max listen at once.
func sqlWorld(t *testing.T, max int) *world {
	w := newWorld(t)
	w.svc = w.reopen(max)
	return w
}

// reopen builds a new cloud domain over w's data file (a restart of the domain), closed at the
// end of the test before the store.
func (w *world) reopen(max int) *cloudsvc.Service {
	svc := cloudsvc.New(w.db, w.clk, nil, cloudsvc.Options{ExternalURL: func() string { return "http://pocketforge.test" },
		SQLListen: "127.0.0.1", SQLMaxInstances: max, SQLMaxMemory: int64(max) << 20})
	w.t.Cleanup(func() { svc.Close() })
	return svc
}

// activeSQL creates a mysql instance reachable from loopback, moves the clock past its
// provisioning and reconciles, as the clock jobs do each tick.
func (w *world) activeSQL(label string, allow ...string) cloudstore.Database {
	w.t.Helper()
	in := newDatabase(label)
	in.AllowList = append([]string{"127.0.0.1"}, allow...)
	db, err := w.svc.CreateDatabase(w.user("demo"), in, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	w.clk.Set(w.clk.Now().Add(cloudsvc.DefaultDatabaseProvisionTime + time.Second))
	w.tick()
	w.ca(db.ID)
	return w.view(db.ID)
}

// tick runs the databases job and the reconciler.
func (w *world) tick() {
	w.t.Helper()
	if err := w.svc.DatabaseJob(w.clk.Now()); err != nil {
		w.t.Fatal(err)
	}
	if err := w.svc.ReconcileDatabases(w.clk.Now()); err != nil {
		w.t.Fatal(err)
	}
}

// view reads demo's sqldb database id as the API would.
func (w *world) view(id uint64) cloudstore.Database {
	w.t.Helper()
	d, err := w.svc.Database(w.user("demo"), cloudstore.FamilySQL, id)
	if err != nil {
		w.t.Fatal(err)
	}
	return d
}

// ca is the ssl view's CA of instance id, read once while it is active (the view needs that).
func (w *world) ca(id uint64) []byte {
	w.t.Helper()
	if w.cas == nil {
		w.cas = map[uint64][]byte{}
	}
	if w.cas[id] == nil {
		ca, err := w.svc.DatabaseCA(w.user("demo"), cloudstore.FamilySQL, id)
		if err != nil {
			w.t.Fatal(err)
		}
		w.cas[id] = ca
	}
	return w.cas[id]
}

var tlsNames atomic.Int64

// dial connects to d as the API says (its endpoint, root credentials, CA; TLS verified against
// the host name the view shows) and pings, so a refusal shows as the error.
func (w *world) dial(d cloudstore.Database, password string) (*sql.DB, error) {
	w.t.Helper()
	if d.Live == nil {
		w.t.Fatalf("database %d does not listen", d.ID)
	}
	ca := w.ca(d.ID)
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		w.t.Fatal("the ssl view's CA is not PEM")
	}
	name := fmt.Sprintf("cloudsvc-%d", tlsNames.Add(1))
	if err := mysql.RegisterTLSConfig(name, &tls.Config{RootCAs: pool, ServerName: d.Live.Host}); err != nil {
		w.t.Fatal(err)
	}
	cfg := mysql.NewConfig()
	cfg.Net, cfg.Addr, cfg.User, cfg.Passwd, cfg.DBName = "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(d.Live.Port)), d.RootUsername(), password, "defaultdb"
	cfg.TLSConfig, cfg.Timeout = name, 5*time.Second
	c, err := mysql.NewConnector(cfg)
	if err != nil {
		w.t.Fatal(err)
	}
	conn := sql.OpenDB(c)
	if err := conn.Ping(); err != nil {
		conn.Close()
		return nil, err
	}
	w.t.Cleanup(func() { conn.Close() })
	return conn, nil
}

// mustDial connects with the credentials view's password.
func (w *world) mustDial(d cloudstore.Database) *sql.DB {
	w.t.Helper()
	conn, err := w.dial(d, w.password(d.ID))
	if err != nil {
		w.t.Fatalf("connect: %v", err)
	}
	return conn
}

// password is the credentials view's root password.
func (w *world) password(id uint64) string {
	w.t.Helper()
	_, pw, err := w.svc.DatabaseCredentials(w.user("demo"), cloudstore.FamilySQL, id)
	if err != nil {
		w.t.Fatal(err)
	}
	return pw
}

// names returns the pets' names in id order.
func names(t *testing.T, conn *sql.DB) string {
	t.Helper()
	rows, err := conn.Query("SELECT name FROM pets ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := ""
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		out += n + " "
	}
	return out
}

func mustExec(t *testing.T, conn *sql.DB, q string) {
	t.Helper()
	if _, err := conn.Exec(q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// TestSQLInstanceServes: an instance that becomes active listens where its view says (the
// external URL's host, a real port), a client verifies its certificate with the ssl view's CA
// and logs in with the credentials view's password, and what it writes survives a restart of
// the domain over the same data file, on the same port.
func TestSQLInstanceServes(t *testing.T) {
	w := sqlWorld(t, 4)
	d := w.activeSQL("pets-db")
	if d.Status != cloudstore.DBActive || d.Live == nil || d.Live.Host != "pocketforge.test" || d.Live.Port == 0 {
		t.Fatalf("active instance: status %s, live %+v", d.Status, d.Live)
	}
	conn := w.mustDial(d)
	mustExec(t, conn, "CREATE TABLE pets (id INT PRIMARY KEY, name TEXT)")
	mustExec(t, conn, "INSERT INTO pets VALUES (1, 'rex'), (2, 'tom')")
	conn.Close()

	w.svc.Close()
	if _, err := w.dial(d, w.password(d.ID)); err == nil {
		t.Fatal("a closed domain still serves")
	}
	w.svc = w.reopen(4)
	w.tick()
	again := w.view(d.ID)
	if again.Live == nil || again.Live.Port != d.Live.Port {
		t.Fatalf("after a restart: live %+v, want port %d", again.Live, d.Live.Port)
	}
	if got := names(t, w.mustDial(again)); got != "rex tom " {
		t.Fatalf("after a restart: %q", got)
	}
}

// TestSQLInstanceListensOnlyWhenActive: a provisioning instance and a postgresql one do not
// listen, and their views keep the simulated values.
func TestSQLInstanceListensOnlyWhenActive(t *testing.T) {
	w := sqlWorld(t, 4)
	in := newDatabase("early-db")
	d, err := w.svc.CreateDatabase(w.user("demo"), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	pg := newDatabase("pg-db")
	pg.Engine = ptr("postgresql/13.2")
	p, err := w.svc.CreateDatabase(w.user("demo"), pg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.svc.ReconcileDatabases(w.clk.Now()); err != nil {
		t.Fatal(err)
	}
	if v := w.view(d.ID); v.Live != nil {
		t.Fatalf("a provisioning instance listens: %+v", v.Live)
	}
	w.clk.Set(w.clk.Now().Add(cloudsvc.DefaultDatabaseProvisionTime + time.Second))
	w.tick()
	if v := w.view(p.ID); v.Status != cloudstore.DBActive || v.Live != nil {
		t.Fatalf("postgresql: status %s, live %+v", v.Status, v.Live)
	}
	if v := w.view(d.ID); v.Live == nil {
		t.Fatal("the mysql instance does not listen once active")
	}
}

// TestSQLSignInsThrottled (issue 32): twelve wrong passwords and then the right one used to
// connect. Now five wrong passwords for linroot lock it at this host: the right password is
// refused with MySQL's 1129 until the appliance clock passes the 30 s lock.
func TestSQLSignInsThrottled(t *testing.T) {
	w := sqlWorld(t, 4)
	d := w.activeSQL("guarded-db")
	for i := range 5 {
		if _, err := w.dial(d, "guess"); err == nil || !strings.Contains(err.Error(), "1045") {
			t.Fatalf("wrong password %d: %v", i+1, err)
		}
	}
	if _, err := w.dial(d, w.password(d.ID)); err == nil || !strings.Contains(err.Error(), "1129") {
		t.Fatalf("the right password while locked: %v, want 1129", err)
	}
	w.clk.Advance(31 * time.Second)
	w.mustDial(d)
}

// TestSQLActiveMeansListening (issue 32): a new instance whose provisioning the clock has ended
// is read before any reconcile ran (the clock job's tick): the view that says active names the
// live port, and a client connects at once — 20 times over, each a new instance.
func TestSQLActiveMeansListening(t *testing.T) {
	w := sqlWorld(t, 24)
	for i := range 20 {
		in := newDatabase(fmt.Sprintf("at-once-%d", i))
		in.AllowList = []string{"127.0.0.1"}
		db, err := w.svc.CreateDatabase(w.user("demo"), in, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.clk.Set(w.clk.Now().Add(cloudsvc.DefaultDatabaseProvisionTime + time.Second))
		d := w.view(db.ID) // no tick: no reconcile since the provisioning ended
		if d.Status != cloudstore.DBActive || d.Live == nil || d.Live.Port == 0 {
			t.Fatalf("instance %d: status %s, live %+v: active must mean listening", i, d.Status, d.Live)
		}
		w.ca(db.ID)
		w.mustDial(d).Close()
	}
}

// TestSQLPortsRange (issue 32): with --sqldb-ports, instances take free ports of the range (a
// container publishes it): the demo's active instances and a new one all listen inside it, and
// a port held by another program is skipped.
func TestSQLPortsRange(t *testing.T) {
	w := newWorld(t)
	// twelve ports from a free one, the second then held by "another program"
	var lo int
	var other net.Listener
	for try := 0; try < 50 && other == nil; try++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lo = l.Addr().(*net.TCPAddr).Port
		l.Close()
		if lo+11 > 65535 {
			continue
		}
		other, _ = net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(lo+1)))
	}
	if other == nil {
		t.Skip("no free ports")
	}
	defer other.Close()
	svc := cloudsvc.New(w.db, w.clk, nil, cloudsvc.Options{ExternalURL: func() string { return "http://pocketforge.test" },
		SQLListen: "127.0.0.1", SQLMaxInstances: 8, SQLMaxMemory: 8 << 20, SQLPorts: [2]int{lo, lo + 11}})
	t.Cleanup(func() { svc.Close() })
	w.svc = svc
	d := w.activeSQL("in-range")
	list, err := w.svc.VisibleDatabases(w.user("demo"), cloudstore.FamilySQL)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range list {
		if x.Live != nil && (x.Live.Port < lo || x.Live.Port > lo+11 || x.Live.Port == lo+1) {
			t.Errorf("%s listens on %d, outside %d-%d or on the taken %d", x.Label, x.Live.Port, lo, lo+11, lo+1)
		}
	}
	if d.Live == nil {
		t.Fatal("the new instance does not listen")
	}
	w.mustDial(d).Close()
}
