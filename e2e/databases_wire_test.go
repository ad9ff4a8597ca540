package e2e

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/linode/linodego"
)

// TestSQLDatabaseOverTheWire: a mysql database created with linodego serves MySQL's protocol
// once active, where its view says; go-sql-driver connects with the API's credentials and CA
// (TLS verified), writes, backs up, writes more, restores and sees the first state; a client
// outside the allow list is refused; after a credentials reset the old password fails; the data
// survives a restart of the binary.
func TestSQLDatabaseOverTheWire(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "d.db")
	// a port range of its own: the other tests' databases, started meanwhile from the default
	// range, could take the port this one must find again after the restart
	args := []string{"--data", data, "--bootstrap-token", e2eToken, "--dev-clock", "--db-provision-time", "1s", "--sqldb-ports", "23306-23310"}
	p := start(t, args...)
	p.waitReady(t)
	ctx := context.Background()
	c := cloudClient(p, e2eToken)
	db, err := c.CreateMySQLDatabase(ctx, linodego.MySQLCreateOptions{Label: "wire-db", Region: "us-east", Type: "g6-nanode-1",
		Engine: "mysql/8.0.26", ClusterSize: 1, AllowList: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatalf("CreateMySQLDatabase: %v", err)
	}
	live := waitListening(t, c, db.ID)
	pw, ca := wirePassword(t, c, db.ID), wireCA(t, c, db.ID)
	conn := wireDial(t, ca, live, pw)
	wireExec(t, conn, "CREATE TABLE pets (id INT PRIMARY KEY, name TEXT)", "INSERT INTO pets VALUES (1, 'rex')")

	base := fmt.Sprintf("%s/v4/databases/sqldb/instances/%d", p.url, db.ID)
	if code, body := request(t, "POST", base+"/backups", e2eToken, strings.NewReader(`{"label":"just-rex"}`)); code != 200 {
		t.Fatalf("snapshot: %d %s", code, body)
	}
	wireExec(t, conn, "INSERT INTO pets VALUES (2, 'tom')")
	skip := func(d string) {
		request(t, "POST", p.url+"/_appliance/clock", e2eToken, strings.NewReader(`{"advance":"`+d+`"}`))
	}
	skip("1m")
	waitStatus(t, c, db.ID, "active")
	var list struct {
		Data []struct{ ID int } `json:"data"`
	}
	if code, body := request(t, "GET", base+"/backups", e2eToken, nil); code != 200 || json.Unmarshal([]byte(body), &list) != nil || len(list.Data) != 1 {
		t.Fatalf("backups: %d %s", code, body)
	}
	if code, body := request(t, "POST", fmt.Sprintf("%s/backups/%d/restore", base, list.Data[0].ID), e2eToken, nil); code != 200 {
		t.Fatalf("restore: %d %s", code, body)
	}
	if got := wireNames(t, conn); got != "rex" {
		t.Fatalf("after the restore: %q, want the snapshot's rows", got)
	}
	skip("1m")
	waitStatus(t, c, db.ID, "active")

	if _, err := c.UpdateMySQLDatabase(ctx, db.ID, linodego.MySQLUpdateOptions{AllowList: &[]string{"203.0.113.1"}}); err != nil {
		t.Fatalf("UpdateMySQLDatabase: %v", err)
	}
	if _, err := wireConnect(t, ca, live, pw); err == nil || !strings.Contains(err.Error(), "1130") {
		t.Fatalf("a client outside the allow list: %v", err)
	}
	skip("1m")
	waitStatus(t, c, db.ID, "active")
	if _, err := c.UpdateMySQLDatabase(ctx, db.ID, linodego.MySQLUpdateOptions{AllowList: &[]string{"127.0.0.1"}}); err != nil {
		t.Fatalf("UpdateMySQLDatabase: %v", err)
	}
	skip("1m")
	waitStatus(t, c, db.ID, "active")
	if err := c.ResetMySQLDatabaseCredentials(ctx, db.ID); err != nil {
		t.Fatalf("ResetMySQLDatabaseCredentials: %v", err)
	}
	if _, err := wireConnect(t, ca, live, pw); err == nil || !strings.Contains(err.Error(), "1045") {
		t.Fatalf("the old password after a reset: %v", err)
	}
	pw = wirePassword(t, c, db.ID)

	p.stop(t, syscall.SIGTERM)
	p = start(t, args...)
	p.waitReady(t)
	c = cloudClient(p, e2eToken)
	again := waitListening(t, c, db.ID)
	if again.Port != live.Port {
		t.Errorf("after a restart the port is %d, was %d", again.Port, live.Port)
	}
	if got := wireNames(t, wireDial(t, ca, again, pw)); got != "rex" {
		t.Fatalf("after a restart: %q", got)
	}
}

// waitListening polls until the database is active and its view names a real port (the
// reconciler starts listeners with the clock jobs, every second).
func waitListening(t *testing.T, c *linodego.Client, id int) *linodego.MySQLDatabase {
	t.Helper()
	deadline := time.Now().Add(40 * time.Second)
	for {
		db, err := c.GetMySQLDatabase(context.Background(), id)
		if err == nil && db.Status == "active" && db.Port != 3306 && db.Hosts.Primary != "" {
			return db
		}
		if time.Now().After(deadline) {
			t.Fatalf("database %d never listened: %+v %v", id, db, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// wirePassword reads the credentials view's password.
func wirePassword(t *testing.T, c *linodego.Client, id int) string {
	t.Helper()
	cred, err := c.GetMySQLDatabaseCredentials(context.Background(), id)
	if err != nil {
		t.Fatalf("credentials: %v", err)
	}
	return cred.Password
}

// wireCA reads the ssl view's CA certificate (PEM; the view needs the database active).
func wireCA(t *testing.T, c *linodego.Client, id int) []byte {
	t.Helper()
	ssl, err := c.GetMySQLDatabaseSSL(context.Background(), id)
	if err != nil {
		t.Fatalf("ssl: %v", err)
	}
	caPEM := ssl.CACertificate
	if block, _ := pem.Decode(caPEM); block == nil {
		if raw, err := base64.StdEncoding.DecodeString(string(caPEM)); err == nil {
			caPEM = raw
		}
	}
	return caPEM
}

// wireConnect connects to db on loopback at its view's port as linroot, verifying the server
// certificate against caPEM for the view's host name, and pings.
func wireConnect(t *testing.T, caPEM []byte, db *linodego.MySQLDatabase, pw string) (*sql.DB, error) {
	t.Helper()
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		t.Fatalf("the ssl view's CA is not PEM: %q", caPEM)
	}
	name := fmt.Sprintf("e2e-%d-%d", db.ID, time.Now().UnixNano())
	if err := mysql.RegisterTLSConfig(name, &tls.Config{RootCAs: pool, ServerName: db.Hosts.Primary}); err != nil {
		t.Fatal(err)
	}
	cfg := mysql.NewConfig()
	cfg.Net, cfg.Addr, cfg.User, cfg.Passwd, cfg.DBName = "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(db.Port)), "linroot", pw, "defaultdb"
	cfg.TLSConfig, cfg.Timeout = name, 5*time.Second
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	out := sql.OpenDB(conn)
	if err := out.Ping(); err != nil {
		out.Close()
		return nil, err
	}
	t.Cleanup(func() { out.Close() })
	return out, nil
}

func wireDial(t *testing.T, caPEM []byte, db *linodego.MySQLDatabase, pw string) *sql.DB {
	t.Helper()
	conn, err := wireConnect(t, caPEM, db, pw)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return conn
}

func wireExec(t *testing.T, conn *sql.DB, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := conn.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// wireNames lists the pets' names in id order, space-separated.
func wireNames(t *testing.T, conn *sql.DB) string {
	t.Helper()
	rows, err := conn.Query("SELECT name FROM pets ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	return strings.Join(names, " ")
}
