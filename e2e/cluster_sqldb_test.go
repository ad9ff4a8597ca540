package e2e

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/linode/linodego"
	"github.com/pocketforge/pocketforge/internal/testkit/pgtest"
)

// TestClusterSQLDatabaseFollowsTheLeader: a mysql database created through the node that does
// not lead (B) listens on the leading node (A), and B's view says so: the leader's host and a
// port of A's --sqldb-ports, where go-sql-driver connects (TLS verified) and writes. Once A is
// killed with kill -9, B takes the lease, starts the instance on a port of its own range, its view
// moves there, and the rows written through A's listener are there.
func TestClusterSQLDatabaseFollowsTheLeader(t *testing.T) {
	t.Parallel()
	bboltPassOnly(t, "starts PostgreSQL nodes of its own")
	url := pgtest.URL(t)
	dbFlags := func(ports string) []string {
		return []string{"--dev-clock", "--db-provision-time", "1s", "--sqldb-ports", ports}
	}
	a := clusterNode(t, url, dbFlags("23340-23344")...)
	b := clusterNode(t, url, dbFlags("23345-23349")...)
	if !leading(t, a) || leading(t, b) {
		t.Fatalf("A should lead, B not: a %v, b %v", leading(t, a), leading(t, b))
	}
	cb := cloudClient(b, e2eToken)
	created, err := cb.CreateMySQLDatabase(context.Background(), linodego.MySQLCreateOptions{Label: "cluster-db", Region: "us-east",
		Type: "g6-nanode-1", Engine: "mysql/8.0.26", ClusterSize: 1, AllowList: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatalf("CreateMySQLDatabase through B: %v", err)
	}
	onA := waitListening(t, cb, created.ID)
	if onA.Port < 23340 || onA.Port > 23344 {
		t.Fatalf("B's view shows port %d; want the leader A's, in 23340-23344", onA.Port)
	}
	pw, ca := wirePassword(t, cb, created.ID), wireCA(t, cb, created.ID)
	conn := wireDial(t, ca, onA, pw)
	wireExec(t, conn, "CREATE TABLE pets (id INT PRIMARY KEY, name TEXT)", "INSERT INTO pets VALUES (1, 'rex')")
	conn.Close()

	a.stop(t, syscall.SIGKILL)
	killed := time.Now()
	var onB *linodego.MySQLDatabase
	within(t, 30*time.Second, "B's view moves to B's own listener", func() bool {
		d, err := cb.GetMySQLDatabase(context.Background(), created.ID)
		if err != nil || d.Status != "active" || d.Port < 23345 || d.Port > 23349 {
			return false
		}
		onB = d
		return true
	})
	t.Logf("the instance listens on B (port %d) %v after A's kill", onB.Port, time.Since(killed).Round(time.Millisecond))
	if got := wireNames(t, wireDial(t, ca, onB, pw)); got != "rex" {
		t.Fatalf("on B the table holds %q; want what was written through A (rex)", got)
	}
}
