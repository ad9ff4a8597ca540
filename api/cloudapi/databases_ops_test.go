package cloudapi

import (
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"strconv"
	"testing"
	"time"

	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/store/kv"
)

// TestDatabaseCredentialsReset: a new random password, readable in the very next request while
// the database stays active (as the real service's recordings show); restoring a backup taken
// before the reset leaves the database failed (with an event and a notification), and a failed
// database can only be deleted.
func TestDatabaseCredentialsReset(t *testing.T) {
	e := newEnv(t, 0)
	creds := req{path: dbPath("sqldb", ordersSQL, "/credentials"), token: demoToken}
	var before struct{ Username, Password string }
	decode(t, e.do(t, creds).Body, &before)
	if before.Username != "linroot" || len(before.Password) != 20 {
		t.Fatalf("credentials: %+v", before)
	}
	e.run(t, []scenario{
		{name: "reset", req: req{method: "POST", path: dbPath("sqldb", ordersSQL, "/credentials/reset"), token: demoToken}, status: 200, exact: `{}`},
		{name: "still shown active", req: req{path: dbPath("sqldb", ordersSQL, ""), token: demoToken}, status: 200, want: []string{`"status":"active"`}},
		{name: "backups at once", req: req{path: dbPath("sqldb", ordersSQL, "/backups"), token: demoToken}, status: 200},
		{name: "event", req: req{path: "/v4/account/events", token: demoToken, header: xfilter(`{"action":"database_credentials_reset"}`)}, status: 200,
			want: []string{`"results":1`, `"username":"demo"`}},
	})
	var after struct{ Username, Password string }
	if r := e.do(t, creds); r.Status != 200 {
		t.Fatalf("credentials right after the reset: %d %s", r.Status, r.Body)
	} else {
		decode(t, r.Body, &after)
	}
	if after.Password == before.Password || len(after.Password) != 20 {
		t.Fatalf("password not renewed: %q then %q", before.Password, after.Password)
	}
	e.run(t, []scenario{
		{name: "restore a backup older than the reset", req: req{method: "POST", path: dbPath("sqldb", ordersSQL, "/backups/7/restore"), token: demoToken}, status: 200},
		{name: "restoring", req: req{path: dbPath("sqldb", ordersSQL, ""), token: demoToken}, status: 200, want: []string{`"status":"restoring"`}},
	})
	e.at(cloudsvc.RestoreTime)
	failedOp := `{"errors":[{"reason":"Database is failed; this operation requires an active database"}]}`
	e.run(t, []scenario{
		{name: "failed", req: req{path: dbPath("sqldb", ordersSQL, ""), token: demoToken}, status: 200, want: []string{`"status":"failed"`}},
		{name: "event", req: req{path: "/v4/account/events", token: demoToken, header: xfilter(`{"action":"database_failed"}`)}, status: 200,
			want: []string{`"results":1`, `"username":null`, `"url":"/v4/databases/sqldb/instances/1"`}},
		{name: "notification", req: req{path: "/v4/account/notifications", token: demoToken}, status: 200,
			want: []string{`"label":"A database has failed"`, `"severity":"critical"`}},
		{name: "its credentials still read", req: creds, status: 200, want: []string{`"username":"linroot"`}},
		{name: "no restore", req: req{method: "POST", path: dbPath("sqldb", ordersSQL, "/backups/7/restore"), token: demoToken}, status: 400, exact: failedOp},
		{name: "backups still listed", req: req{path: dbPath("sqldb", ordersSQL, "/backups"), token: demoToken}, status: 200},
		{name: "delete", req: req{method: "DELETE", path: dbPath("sqldb", ordersSQL, ""), token: demoToken}, status: 200, exact: `{}`},
		{name: "gone", req: req{path: dbPath("sqldb", ordersSQL, ""), token: demoToken}, status: 404},
		{name: "its backups gone", req: req{path: dbPath("sqldb", ordersSQL, "/backups/7"), token: demoToken}, status: 404},
		{name: "notification gone", req: req{path: "/v4/account/notifications", token: demoToken}, status: 200, not: []string{"has failed"}},
		{name: "label free again", req: req{method: "POST", path: "/v4/databases/sqldb/instances", token: demoToken, body: createBody("label", `"orders-sql"`)}, status: 200},
		{name: "delete event", req: req{path: "/v4/account/events", token: demoToken, header: xfilter(`{"action":"database_delete"}`)}, status: 200, want: []string{`"results":1`}},
	})
}

// TestDatabaseDeleteRightAfterReset: nothing waits behind a reset — an update, a patch and a
// delete sent at once all go through.
func TestDatabaseDeleteRightAfterReset(t *testing.T) {
	e := newEnv(t, 0)
	e.run(t, []scenario{
		{name: "reset", req: req{method: "POST", path: dbPath("docdb", catalogDoc, "/credentials/reset"), token: demoToken}, status: 200, exact: `{}`},
		{name: "delete at once", req: req{method: "DELETE", path: dbPath("docdb", catalogDoc, ""), token: demoToken}, status: 200, exact: `{}`},
		{name: "gone", req: req{path: dbPath("docdb", catalogDoc, ""), token: demoToken}, status: 404},
		{name: "reset another", req: req{method: "POST", path: dbPath("sqldb", ordersSQL, "/credentials/reset"), token: demoToken}, status: 200},
		{name: "update at once", req: req{method: "PUT", path: dbPath("sqldb", ordersSQL, ""), token: demoToken, body: `{"label":"orders-sql-2"}`}, status: 200, want: []string{`"status":"updating"`}},
	})
}

// TestDatabaseRestoreAfterReset: a backup taken after the reset restores fine.
func TestDatabaseRestoreAfterReset(t *testing.T) {
	e := newEnv(t, 0)
	e.do(t, req{method: "POST", path: dbPath("docdb", catalogDoc, "/credentials/reset"), token: demoToken})
	e.at(time.Minute)
	e.run(t, []scenario{{name: "snapshot", req: req{method: "POST", path: dbPath("docdb", catalogDoc, "/backups"), token: demoToken, body: `{"label":"after-reset"}`}, status: 200}})
	e.at(2 * time.Minute)
	var list struct{ Data []backupView }
	decode(t, e.do(t, req{path: dbPath("docdb", catalogDoc, "/backups"), token: demoToken, header: xfilter(`{"type":"snapshot"}`)}).Body, &list)
	if len(list.Data) != 1 {
		t.Fatalf("snapshots: %+v", list)
	}
	e.do(t, req{method: "POST", path: dbPath("docdb", catalogDoc, "/backups/"+itoa(list.Data[0].ID)+"/restore"), token: demoToken})
	e.at(3 * time.Minute)
	e.run(t, []scenario{{name: "active", req: req{path: dbPath("docdb", catalogDoc, ""), token: demoToken}, status: 200, want: []string{`"status":"active"`}}})
	var d cloudstore.Database
	e.db.View(func(tx kv.Tx) (err error) { d, err = cloudstore.GetDatabase(tx, catalogDoc); return })
	if d.DataGeneration != 1 {
		t.Fatalf("data generation %d after one restore", d.DataGeneration)
	}
}

// TestDatabasePatch: a patch shows the database updating, with a maintenance notification for
// as long as it lasts.
func TestDatabasePatch(t *testing.T) {
	e := newEnv(t, 0)
	e.run(t, []scenario{
		{name: "patch", req: req{method: "POST", path: dbPath("docdb", catalogDoc, "/patch"), token: demoToken}, status: 200, exact: `{}`},
		{name: "updating", req: req{path: dbPath("docdb", catalogDoc, ""), token: demoToken}, status: 200, want: []string{`"status":"updating"`}},
		{name: "notice", req: req{path: "/v4/account/notifications", token: demoToken}, status: 200,
			want: []string{`"label":"Database maintenance in progress"`, `"type":"maintenance","severity":"minor","when":"2026-11-22T12:00:00","until":"2026-11-22T12:00:30"`}},
		{name: "carol sees it (her grant)", req: req{path: "/v4/account/notifications", token: carolToken}, status: 200, want: []string{"catalog-doc"}, not: []string{"legacy-sql"}},
		{name: "the degraded one's", req: req{path: "/v4/account/notifications", token: demoToken}, status: 200, want: []string{`"label":"A database is degraded"`}},
		{name: "event", req: req{path: "/v4/account/events", token: demoToken, header: xfilter(`{"action":"database_update"}`)}, status: 200, want: []string{`"results":1`}},
	})
	e.at(cloudsvc.PatchTime)
	e.run(t, []scenario{{name: "over", req: req{path: "/v4/account/notifications", token: demoToken}, status: 200, not: []string{"maintenance in progress"}}})
}

// TestDatabaseSSL: the CA certificate decodes — base64, PEM, x509 — into a self-signed CA, one
// per database.
func TestDatabaseSSL(t *testing.T) {
	e := newEnv(t, 0)
	certOf := func(fam string, id int) *x509.Certificate {
		t.Helper()
		r := e.do(t, req{path: dbPath(fam, id, "/ssl"), token: demoToken})
		var v struct {
			CACertificate string `json:"ca_certificate"`
		}
		decode(t, r.Body, &v)
		raw, err := base64.StdEncoding.DecodeString(v.CACertificate)
		if err != nil {
			t.Fatalf("%d %s: %v", r.Status, r.Body, err)
		}
		block, _ := pem.Decode(raw)
		if block == nil || block.Type != "CERTIFICATE" {
			t.Fatalf("not a PEM certificate: %q", raw)
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		return cert
	}
	a, b := certOf("sqldb", ordersSQL), certOf("docdb", catalogDoc)
	if !a.IsCA || !a.BasicConstraintsValid || a.CheckSignatureFrom(a) != nil || a.Subject.CommonName != "orders-sql Managed Database CA" {
		t.Fatalf("not a self-signed CA: %+v", a.Subject)
	}
	if a.SerialNumber.Cmp(b.SerialNumber) == 0 || a.CheckSignatureFrom(b) == nil {
		t.Fatal("two databases share a CA")
	}
	if again := certOf("sqldb", ordersSQL); !again.Equal(a) {
		t.Fatal("the certificate changed between two views")
	}
	e.run(t, []scenario{{name: "degraded", req: req{path: dbPath("sqldb", legacySQL, "/ssl"), token: demoToken}, status: 200, want: []string{`"ca_certificate":"LS0t`}}})
}

func itoa(id uint64) string { return strconv.FormatUint(id, 10) }
