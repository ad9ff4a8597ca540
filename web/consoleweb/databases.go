package consoleweb

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/web"
)

// databasesView is the databases page's data: the databases the user may see, as they stand now.
type databasesView struct {
	top
	Databases []databaseRow
	Pager     pager
	// MayCreate shows the create form (Form), Error why it was refused.
	MayCreate bool
	Form      dbForm
	Error     string
}

// databaseRow is a managed database as the console shows it.
type databaseRow struct{ cloudstore.Database }

// Path is the database's console page.
func (d databaseRow) Path() string {
	return "/console/databases/" + d.Family + "/" + strconv.FormatUint(d.ID, 10)
}

// Since is when the database was created.
func (d databaseRow) Since() stamp { return stamp(d.Created) }

// databases is GET /console/databases (GET /databases/instances: a restricted user sees the
// databases they hold a grant on).
func (con *console) databases(c *fiber.Ctx, who *cloudsvc.Caller) error {
	return con.databasesPage(c, who, http.StatusOK, dbForm{ClusterSize: "1"}, "")
}

// databaseView is one database's page, and the pages of its credentials steps.
type databaseView struct {
	top
	DB databaseRow
	// Reset says the credentials were just reset; MayReset that the user may reset them (the
	// reset endpoint's guard), so the button shows only where it would work.
	Reset, MayReset bool
	// Action is the step a confirm page asks about: "reveal" or "reset".
	Action string
	// Username and Password are the root credentials, on the reveal page only.
	Username, Password string
	// Conn is where a client connects, for a database whose engine listens now (nil: none does).
	Conn *connection
	// Backups are the database's complete backups, read when MayBackUp (the backups' guard).
	Backups   []cloudstore.DatabaseBackup
	MayBackUp bool
	// NoBackups is why the database has no backups to list or take now (the domain's words).
	NoBackups string
	// Backup is the backup a restore's confirm page asks about.
	Backup cloudstore.DatabaseBackup
	// Error is why a form on the page was refused; Note what a form just did ("backup",
	// "restore", "resize").
	Error, Note string
	// Types are the plans the resize form offers (none: no resize for who).
	Types []cloudstore.DatabaseType
}

// lookup reads the database of the path (fam, id) as who may see it, for an operation that
// needs n: another account's, or one a restricted user holds no grant on, is not found, as in
// the API.
func (con *console) lookup(c *fiber.Ctx, who *cloudsvc.Caller, n cloudsvc.Need) (cloudstore.Database, error) {
	if err := allow(n, who); err != nil {
		return cloudstore.Database{}, err
	}
	id, err := strconv.ParseUint(c.Params("id"), 10, 64)
	if err != nil {
		return cloudstore.Database{}, fiber.ErrNotFound
	}
	return con.Cloud.Database(who.User, c.Params("family"), id)
}

// database is GET /console/databases/:family/:id (GET /databases/{family}/instances/{id}).
func (con *console) database(c *fiber.Ctx, who *cloudsvc.Caller) error {
	d, err := con.lookup(c, who, cloudsvc.NeedGetDatabase)
	if err != nil {
		return err
	}
	return con.databasePage(c, who, d, http.StatusOK, "")
}

// databasePage renders d's page with status and, when a form on it was refused, why.
func (con *console) databasePage(c *fiber.Ctx, who *cloudsvc.Caller, d cloudstore.Database, status int, refused string) error {
	v := databaseView{top: newTop(who, "databases"), DB: databaseRow{d}, Reset: c.Query("reset") != "",
		MayReset: allow(cloudsvc.NeedResetDatabaseCredentials, who) == nil, Error: refused,
		Note: c.Query("done"), Conn: connectionOf(d)}
	if allow(cloudsvc.NeedUpdateDatabase, who) == nil && d.Family == cloudstore.FamilySQL {
		cat, err := con.Cloud.DatabaseCatalog()
		if err != nil {
			return err
		}
		v.Types = cat.Types
	}
	if allow(cloudsvc.NeedDatabaseBackups, who) == nil {
		v.MayBackUp = true
		list, err := con.Cloud.DatabaseBackups(who.User, d.Family, d.ID)
		switch {
		case errors.Is(err, store.ErrInvalid), errors.Is(err, store.ErrConflict):
			v.NoBackups = err.Error() // not now (provisioning…): the section says why
		case err != nil:
			return err
		}
		v.Backups = list
	}
	return con.render(c, status, "Database "+d.Label, web.PageOf(databasePage, v))
}

// confirmed says the form was sent from the confirm page.
func confirmed(c *fiber.Ctx) bool { return c.FormValue("confirm") == "yes" }

// revealCredentials is POST /console/databases/:family/:id/credentials: first a page that asks
// to confirm, then (confirm=yes) cloudsvc.DatabaseCredentials, as GET …/credentials does, shown
// on the answer to that POST only — the page is not cached, and nothing links to it.
func (con *console) revealCredentials(c *fiber.Ctx, who *cloudsvc.Caller) error {
	d, err := con.lookup(c, who, cloudsvc.NeedGetDatabaseCredentials)
	if err != nil {
		return err
	}
	v := databaseView{top: newTop(who, "databases"), DB: databaseRow{d}, Action: "reveal"}
	if !confirmed(c) {
		return con.render(c, http.StatusOK, "Reveal credentials", web.PageOf(confirmPage, v))
	}
	if v.Username, v.Password, err = con.Cloud.DatabaseCredentials(who.User, d.Family, d.ID); err != nil {
		return err
	}
	return con.render(c, http.StatusOK, "Credentials of "+d.Label, web.PageOf(credentialsPage, v))
}

// resetCredentials is POST /console/databases/:family/:id/credentials/reset: first a page that
// asks to confirm, then (confirm=yes) cloudsvc.ResetDatabaseCredentials, as POST
// …/credentials/reset does (unrestricted users only), and back to the database's page.
func (con *console) resetCredentials(c *fiber.Ctx, who *cloudsvc.Caller) error {
	d, err := con.lookup(c, who, cloudsvc.NeedGetDatabase)
	if err != nil {
		return err
	}
	if err := allow(cloudsvc.NeedResetDatabaseCredentials, who); err != nil {
		return err
	}
	if !confirmed(c) {
		v := databaseView{top: newTop(who, "databases"), DB: databaseRow{d}, Action: "reset"}
		return con.render(c, http.StatusOK, "Reset credentials", web.PageOf(confirmPage, v))
	}
	if err := con.Cloud.ResetDatabaseCredentials(who.User, d.Family, d.ID); err != nil {
		return err
	}
	return c.Redirect(databaseRow{d}.Path()+"?reset=1", http.StatusSeeOther)
}
