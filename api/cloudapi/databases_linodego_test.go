package cloudapi

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/linode/linodego"
	"github.com/valyala/fasthttp"
)

// databaseClient serves e's app on loopback and returns linodego pointed at it, unchanged: its
// typed calls use the real service's paths (/databases/mysql/…), which the API accepts as
// aliases of the seed's.
func databaseClient(t *testing.T, e *env, token string) *linodego.Client {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go fasthttp.Serve(ln, e.app.Handler())
	t.Cleanup(func() { ln.Close() })
	c := linodego.NewClient(&http.Client{Timeout: 10 * time.Second})
	c.SetBaseURL("http://" + ln.Addr().String())
	c.SetToken(token)
	c.UseCache(false)
	c.SetRetryCount(0)
	return &c
}

// TestDatabasesWithLinodego drives linodego's database calls against the API: the catalogue,
// the generic list, and a MySQL database's whole life (create, provision, update, credentials,
// ssl, reset, patch, suspend, resume, delete), plus PostgreSQL reads — proving its requests and its parsing. The
// seed has one sqldb family, so linodego's MySQL and PostgreSQL lists both see every sqldb
// database; an X-Filter on engine separates them.
func TestDatabasesWithLinodego(t *testing.T) {
	e := newEnv(t, 0)
	ctx := context.Background()
	c := databaseClient(t, e, demoToken)
	linodegoCatalogue(t, c)
	mysqlLife(t, e, c)
	if all, err := c.ListPostgresDatabases(ctx, nil); err != nil || len(all) != 3 {
		t.Fatalf("ListPostgresDatabases lists the one sqldb family: %+v %v", all, err)
	}
	pgs, err := c.ListPostgresDatabases(ctx, linodego.NewListOptions(0, `{"engine":"postgresql"}`))
	if err != nil || len(pgs) != 1 || pgs[0].Label != "reports-pg" || pgs[0].Port != 5432 {
		t.Fatalf("ListPostgresDatabases: %+v %v", pgs, err)
	}
	if pc, err := c.GetPostgresDatabaseCredentials(ctx, pgs[0].ID); err != nil || pc.Username != "linpostgres" {
		t.Fatalf("GetPostgresDatabaseCredentials: %+v %v", pc, err)
	}
}

// linodegoCatalogue reads the catalogue and the generic list through linodego.
func linodegoCatalogue(t *testing.T, c *linodego.Client) {
	t.Helper()
	ctx := context.Background()
	if engines, err := c.ListDatabaseEngines(ctx, nil); err != nil || len(engines) != 12 {
		t.Fatalf("ListDatabaseEngines: %+v %v", engines, err)
	}
	if eng, err := c.GetDatabaseEngine(ctx, nil, "mysql/8.0.26"); err != nil || eng.Engine != "mysql" || eng.Version != "8.0.26" {
		t.Fatalf("GetDatabaseEngine: %+v %v", eng, err)
	}
	if typ, err := c.GetDatabaseType(ctx, nil, "g6-dedicated-2"); err != nil || typ.Engines.MySQL[1].Quantity != 3 || typ.Engines.MySQL[1].Price.Monthly != 195 {
		t.Fatalf("GetDatabaseType: %+v %v", typ, err)
	}
	if all, err := c.ListDatabases(ctx, nil); err != nil || len(all) != 4 || all[1].InstanceURI != "/v4/databases/docdb/instances/2" || all[0].Created == nil {
		t.Fatalf("ListDatabases: %+v %v", all, err)
	}
}

// mysqlLife takes a MySQL database through its whole life with linodego.
func mysqlLife(t *testing.T, e *env, c *linodego.Client) {
	t.Helper()
	ctx := context.Background()
	db, err := c.CreateMySQLDatabase(ctx, linodego.MySQLCreateOptions{Label: "go-mysql", Region: "us-east", Type: "g6-nanode-1", Engine: "mysql/8.0.26",
		AllowList: []string{"203.0.113.1", "192.0.1.0/24"}, ClusterSize: 3})
	if err != nil || db.Status != linodego.DatabaseStatusProvisioning || db.Hosts.Primary != "" || db.AllowList[0] != "203.0.113.1/32" {
		t.Fatalf("CreateMySQLDatabase: %+v %v", db, err)
	}
	var apiErr *linodego.Error
	if _, err := c.CreateMySQLDatabase(ctx, linodego.MySQLCreateOptions{Label: "go-mysql"}); !errors.As(err, &apiErr) || apiErr.Code != 400 {
		t.Fatalf("a bad create: %v", err)
	}
	e.at(time.Minute)
	if db, err = c.GetMySQLDatabase(ctx, db.ID); err != nil || db.Status != linodego.DatabaseStatusActive || db.Hosts.Primary == "" || db.Port != 3306 {
		t.Fatalf("GetMySQLDatabase: %+v %v", db, err)
	}
	day := linodego.DatabaseMaintenanceDayFriday
	up := linodego.MySQLUpdateOptions{Label: "go-mysql-2", AllowList: &[]string{"10.0.0.0/8"},
		Updates: &linodego.DatabaseMaintenanceWindow{DayOfWeek: day, Duration: 1, Frequency: linodego.DatabaseMaintenanceFrequencyWeekly, HourOfDay: 8}}
	if db, err = c.UpdateMySQLDatabase(ctx, db.ID, up); err != nil || db.Status != linodego.DatabaseStatusUpdating || db.Updates.DayOfWeek != day {
		t.Fatalf("UpdateMySQLDatabase: %+v %v", db, err)
	}
	e.at(2 * time.Minute)
	ssl, err := c.GetMySQLDatabaseSSL(ctx, db.ID)
	if block, _ := pem.Decode(ssl.CACertificate); err != nil || block == nil {
		t.Fatalf("GetMySQLDatabaseSSL: %q %v", ssl.CACertificate, err)
	} else if cert, err := x509.ParseCertificate(block.Bytes); err != nil || !cert.IsCA {
		t.Fatalf("CA certificate: %v", err)
	}
	creds, err := c.GetMySQLDatabaseCredentials(ctx, db.ID)
	if err != nil || creds.Username != "linroot" || creds.Password == "" {
		t.Fatalf("GetMySQLDatabaseCredentials: %+v %v", creds, err)
	}
	if err := c.ResetMySQLDatabaseCredentials(ctx, db.ID); err != nil {
		t.Fatalf("ResetMySQLDatabaseCredentials: %v", err)
	}
	// As in the real service's recording: the new password, then a patch, with no wait.
	if after, err := c.GetMySQLDatabaseCredentials(ctx, db.ID); err != nil || after.Password == creds.Password {
		t.Fatalf("credentials after the reset: %+v %v", after, err)
	}
	if err := c.PatchMySQLDatabase(ctx, db.ID); err != nil {
		t.Fatalf("PatchMySQLDatabase: %v", err)
	}
	if err := c.DeleteMySQLDatabase(ctx, db.ID); !errors.As(err, &apiErr) || apiErr.Code != 400 || !strings.Contains(apiErr.Message, "updating") {
		t.Fatalf("DeleteMySQLDatabase while updating: %v", err)
	}
	e.at(4 * time.Minute)
	if err := c.SuspendMySQLDatabase(ctx, db.ID); err != nil {
		t.Fatalf("SuspendMySQLDatabase: %v", err)
	}
	e.at(5 * time.Minute)
	if got, err := c.GetMySQLDatabase(ctx, db.ID); err != nil || got.Status != "suspended" {
		t.Fatalf("after SuspendMySQLDatabase: %+v %v", got, err)
	}
	// suspended, its credentials and CA are not read (the Terraform provider skips them then)
	if _, err := c.GetMySQLDatabaseCredentials(ctx, db.ID); !errors.As(err, &apiErr) || apiErr.Code != 400 || !strings.Contains(apiErr.Message, "suspended") {
		t.Fatalf("GetMySQLDatabaseCredentials while suspended: %v", err)
	}
	if _, err := c.GetMySQLDatabaseSSL(ctx, db.ID); !errors.As(err, &apiErr) || apiErr.Code != 400 {
		t.Fatalf("GetMySQLDatabaseSSL while suspended: %v", err)
	}
	if err := c.ResumeMySQLDatabase(ctx, db.ID); err != nil {
		t.Fatalf("ResumeMySQLDatabase: %v", err)
	}
	e.at(6 * time.Minute)
	if err := c.DeleteMySQLDatabase(ctx, db.ID); err != nil {
		t.Fatalf("DeleteMySQLDatabase: %v", err)
	}
}
