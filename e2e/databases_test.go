package e2e

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/linode/linodego"
)

// TestLinodegoDatabases: the catalogue, the generic list and a sql database's life — create,
// provision by the clock, credentials, a CA certificate that parses, update, snapshot and the
// 00:00 UTC backup (through plain requests: linodego has no backup calls), reset, delete —
// against the built binary.
func TestLinodegoDatabases(t *testing.T) {
	t.Parallel()
	p := start(t, "--data", filepath.Join(t.TempDir(), "d.db"), "--bootstrap-token", e2eToken, "--dev-clock", "--db-provision-time", "1s")
	p.waitReady(t)
	ctx := context.Background()
	plain := cloudClient(p, e2eToken)
	engines, err := plain.ListDatabaseEngines(ctx, nil)
	if err != nil || len(engines) < 4 {
		t.Fatalf("ListDatabaseEngines: %+v %v", engines, err)
	}
	if eng, err := plain.GetDatabaseEngine(ctx, nil, "mysql/8.0.26"); err != nil || eng.Engine != "mysql" || eng.Version != "8.0.26" {
		t.Fatalf("GetDatabaseEngine with an encoded slash: %+v %v", eng, err)
	}
	if types, err := plain.ListDatabaseTypes(ctx, nil); err != nil || len(types) == 0 {
		t.Fatalf("ListDatabaseTypes: %+v %v", types, err)
	}
	if all, err := plain.ListDatabases(ctx, nil); err != nil || len(all) < 3 {
		t.Fatalf("ListDatabases: %+v %v", all, err)
	}

	hc := &http.Client{Timeout: 10 * time.Second} // unchanged: /databases/mysql/… is an alias of sqldb
	lc := linodego.NewClient(hc)
	lc.SetBaseURL(p.url)
	lc.SetToken(e2eToken)
	lc.UseCache(false)
	c := &lc
	db, err := c.CreateMySQLDatabase(ctx, linodego.MySQLCreateOptions{Label: "e2e-db", Region: "us-east", Type: "g6-nanode-1", Engine: "mysql/8.0.26", ClusterSize: 1})
	if err != nil || db.Status != "provisioning" {
		t.Fatalf("CreateMySQLDatabase: %+v %v", db, err)
	}
	waitStatus(t, c, db.ID, "active")
	if cred, err := c.GetMySQLDatabaseCredentials(ctx, db.ID); err != nil || cred.Username != "linroot" || len(cred.Password) < 16 {
		t.Fatalf("credentials: %+v %v", cred, err)
	}
	ssl, err := c.GetMySQLDatabaseSSL(ctx, db.ID)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(ssl.CACertificate)
	if block == nil {
		if raw, derr := base64.StdEncoding.DecodeString(string(ssl.CACertificate)); derr == nil {
			block, _ = pem.Decode(raw)
		}
	}
	if block == nil {
		t.Fatalf("ca_certificate is not a PEM certificate: %q", ssl.CACertificate)
	}
	if cert, err := x509.ParseCertificate(block.Bytes); err != nil || !cert.IsCA {
		t.Fatalf("CA certificate: %v", err)
	}
	if up, err := c.UpdateMySQLDatabase(ctx, db.ID, linodego.MySQLUpdateOptions{Label: "e2e-db-2"}); err != nil || up.Label != "e2e-db-2" {
		t.Fatalf("UpdateMySQLDatabase: %+v %v", up, err)
	}
	if _, err := c.UpdateMySQLDatabase(ctx, db.ID, linodego.MySQLUpdateOptions{Label: "again"}); !isStatus(err, 400) {
		t.Fatalf("an update while updating: %v", err)
	}
	skip := func(d string) {
		request(t, "POST", p.url+"/_appliance/clock", e2eToken, strings.NewReader(`{"advance":"`+d+`"}`))
	}
	skip("1m") // the update's few seconds, without waiting for them
	waitStatus(t, c, db.ID, "active")

	base := fmt.Sprintf("%s/v4/databases/sqldb/instances/%d", p.url, db.ID)
	if code, body := request(t, "POST", base+"/backups", e2eToken, strings.NewReader(`{"label":"before--upgrade"}`)); code != 400 || !strings.Contains(body, `"field":"label"`) {
		t.Fatalf("a bad snapshot label: %d %s", code, body)
	}
	if code, body := request(t, "POST", base+"/backups", e2eToken, strings.NewReader(`{"label":"before-upgrade"}`)); code != 200 {
		t.Fatalf("snapshot: %d %s", code, body)
	}
	skip("1m")
	waitStatus(t, c, db.ID, "active")
	skip("24h") // past the next 00:00 UTC: the daily backup runs
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, body := request(t, "GET", base+"/backups", e2eToken, nil)
		var list struct {
			Data []struct{ Type string } `json:"data"`
		}
		json.Unmarshal([]byte(body), &list)
		auto := 0
		for _, b := range list.Data {
			if b.Type == "auto" {
				auto++
			}
		}
		if auto > 0 && len(list.Data) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no auto backup after midnight: %s", body)
		}
		time.Sleep(200 * time.Millisecond)
	}
	waitStatus(t, c, db.ID, "active")
	if err := c.ResetMySQLDatabaseCredentials(ctx, db.ID); err != nil {
		t.Fatalf("ResetMySQLDatabaseCredentials: %v", err)
	}
	if cred, err := c.GetMySQLDatabaseCredentials(ctx, db.ID); err != nil || len(cred.Password) < 16 {
		t.Fatalf("credentials right after the reset: %+v %v", cred, err)
	}
	if err := c.DeleteMySQLDatabase(ctx, db.ID); err != nil {
		t.Fatalf("DeleteMySQLDatabase: %v", err)
	}
	if _, err := c.GetMySQLDatabase(ctx, db.ID); !isStatus(err, 404) {
		t.Fatalf("deleted database: %v", err)
	}
}

// waitStatus polls until the database has the status (the appliance's jobs run every second).
func waitStatus(t *testing.T, c *linodego.Client, id int, status string) {
	t.Helper()
	deadline := time.Now().Add(40 * time.Second)
	for {
		db, err := c.GetMySQLDatabase(context.Background(), id)
		if err == nil && string(db.Status) == status {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("database %d never became %s: %+v %v", id, status, db, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}
