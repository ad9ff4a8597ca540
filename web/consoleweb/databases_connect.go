package consoleweb

import (
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/web"
)

// A connectable database's page says where to connect — host, port, the CA to verify the server
// with (downloaded from here), a mysql command line and a Go DSN — and lists its backups with
// "Back up now" and a restore (after a confirm step), each through the same domain call as the
// API and behind the console's CSRF check:
//
//	GET  /console/databases/:family/:id/ca.pem                      the CA certificate (GET …/ssl)
//	POST /console/databases/:family/:id/backups                     back up now (label)
//	POST /console/databases/:family/:id/backups/:backup/restore     restore it (after a confirm step)

// connection is where a client reaches a database's engine.
type connection struct {
	Host  string
	Port  int
	User  string
	Label string
}

// connectionOf is d's connection while its engine listens, nil otherwise (a simulated record,
// or an instance that is provisioning, suspended or failed).
func connectionOf(d cloudstore.Database) *connection {
	if !d.Connectable() || d.Live == nil {
		return nil
	}
	return &connection{Host: d.Live.Host, Port: d.Live.Port, User: d.RootUsername(), Label: d.Label}
}

// Address is host:port.
func (c connection) Address() string { return net.JoinHostPort(c.Host, strconv.Itoa(c.Port)) }

// CAFile is the name the CA download is saved under.
func (c connection) CAFile() string { return c.Label + "-ca.pem" }

// MySQLLine is the mysql client's command line (it asks for the password).
func (c connection) MySQLLine() string {
	return "mysql --host=" + c.Host + " --port=" + strconv.Itoa(c.Port) + " --user=" + c.User +
		" --password --ssl-ca=" + c.CAFile() + " defaultdb"
}

// GoDSN is go-sql-driver/mysql's data source name; "pocketforge" is the name of the tls.Config
// (RootCAs from the CA file, ServerName the host) to register with mysql.RegisterTLSConfig.
func (c connection) GoDSN() string {
	return c.User + ":PASSWORD@tcp(" + c.Address() + ")/defaultdb?tls=pocketforge"
}

// databaseCA is GET /console/databases/:family/:id/ca.pem: the CA certificate GET …/ssl
// answers, as a file.
func (con *console) databaseCA(c *fiber.Ctx, who *cloudsvc.Caller) error {
	d, err := con.lookup(c, who, cloudsvc.NeedGetDatabaseSSL)
	if err != nil {
		return err
	}
	pem, err := con.Cloud.DatabaseCA(who.User, d.Family, d.ID)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/x-pem-file")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+strings.ReplaceAll(d.Label, `"`, "")+`-ca.pem"`)
	return c.Send(pem)
}

// backUp is POST /console/databases/:family/:id/backups: cloudsvc.SnapshotDatabase, as POST
// …/backups does, with the form's label; a refusal is shown on the database's page.
func (con *console) backUp(c *fiber.Ctx, who *cloudsvc.Caller) error {
	d, err := con.lookup(c, who, cloudsvc.NeedDatabaseBackups)
	if err != nil {
		return err
	}
	label := c.FormValue("label")
	err = con.Cloud.SnapshotDatabase(who.User, d.Family, d.ID, &label, nil, nil)
	if errors.Is(err, store.ErrInvalid) || errors.Is(err, store.ErrConflict) {
		return con.databasePage(c, who, d, http.StatusBadRequest, err.Error())
	}
	if err != nil {
		return err
	}
	return c.Redirect(databaseRow{d}.Path()+"?done=backup", http.StatusSeeOther)
}

// restoreBackup is POST /console/databases/:family/:id/backups/:backup/restore: first a page
// that asks to confirm, then (confirm=yes) cloudsvc.RestoreDatabaseBackup, as POST
// …/backups/{backupId}/restore does.
func (con *console) restoreBackup(c *fiber.Ctx, who *cloudsvc.Caller) error {
	d, err := con.lookup(c, who, cloudsvc.NeedDatabaseBackups)
	if err != nil {
		return err
	}
	bid, err := strconv.ParseUint(c.Params("backup"), 10, 64)
	if err != nil {
		return fiber.ErrNotFound
	}
	b, err := con.Cloud.DatabaseBackup(who.User, d.Family, d.ID, bid)
	if err != nil {
		return err
	}
	if !confirmed(c) {
		v := databaseView{top: newTop(who, "databases"), DB: databaseRow{d}, Action: "restore", Backup: b}
		return con.render(c, http.StatusOK, "Restore a backup", web.PageOf(confirmPage, v))
	}
	err = con.Cloud.RestoreDatabaseBackup(who.User, d.Family, d.ID, bid)
	if errors.Is(err, store.ErrInvalid) || errors.Is(err, store.ErrConflict) {
		return con.databasePage(c, who, d, http.StatusBadRequest, err.Error())
	}
	if err != nil {
		return err
	}
	return c.Redirect(databaseRow{d}.Path()+"?done=restore", http.StatusSeeOther)
}
