package consoleweb

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/pocketforge/pocketforge/cloudsvc"
	"github.com/pocketforge/pocketforge/store"
	"github.com/pocketforge/pocketforge/store/cloudstore"
	"github.com/pocketforge/pocketforge/web"
)

// Creating and resizing a database from the console, through the API's domain calls and behind
// the console's CSRF check:
//
//	POST /console/databases                          create one (label, engine, region, type, cluster_size, allow_list)
//	POST /console/databases/:family/:id/resize       resize it (type, cluster_size)

// dbForm is what the create form holds, with the catalogue it offers.
type dbForm struct {
	Label, Engine, Region, Type, ClusterSize, AllowList string
	Catalog                                             cloudstore.DatabaseCatalog
}

// createDatabase is POST /console/databases: cloudsvc.CreateDatabase, as POST
// /databases/sqldb/instances does; the new database's page follows (provisioning). A refused
// input shows the form again with the domain's reasons (400).
func (con *console) createDatabase(c *fiber.Ctx, who *cloudsvc.Caller) error {
	if err := allow(cloudsvc.NeedCreateDatabase, who); err != nil {
		return err
	}
	f := dbForm{Label: c.FormValue("label"), Engine: c.FormValue("engine"), Region: c.FormValue("region"), Type: c.FormValue("type"),
		ClusterSize: c.FormValue("cluster_size", "1"), AllowList: c.FormValue("allow_list")}
	in := cloudstore.NewDatabase{Label: &f.Label, Engine: &f.Engine, Region: &f.Region, Type: &f.Type, AllowList: listOf(f.AllowList)}
	var parsed store.Problems
	if n, err := strconv.Atoi(f.ClusterSize); err == nil {
		in.ClusterSize = &n
	} else {
		parsed = append(parsed, store.Problem{Field: "cluster_size", Reason: "Must be 1 or 3"})
	}
	d, err := con.Cloud.CreateDatabase(who.User, in, parsed)
	if errors.Is(err, store.ErrInvalid) {
		return con.databasesPage(c, who, http.StatusBadRequest, f, err.Error())
	}
	if err != nil {
		return err
	}
	return c.Redirect(databaseRow{d}.Path(), http.StatusSeeOther)
}

// listOf splits a comma- or space-separated list, leaving out empty entries.
func listOf(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t' })
}

// resizeDatabase is POST /console/databases/:family/:id/resize: cloudsvc.UpdateDatabase with a
// new type and cluster size, as PUT /databases/{family}/instances/{id} resizes; a refusal is
// shown on the database's page.
func (con *console) resizeDatabase(c *fiber.Ctx, who *cloudsvc.Caller) error {
	d, err := con.lookup(c, who, cloudsvc.NeedUpdateDatabase)
	if err != nil {
		return err
	}
	up := cloudstore.DatabaseUpdate{}
	var parsed store.Problems
	if t := c.FormValue("type"); t != "" && t != d.Type {
		up.Type = &t
	}
	if raw := c.FormValue("cluster_size"); raw != "" {
		if n, err := strconv.Atoi(raw); err != nil {
			parsed = append(parsed, store.Problem{Field: "cluster_size", Reason: "Must be 1 or 3"})
		} else if n != d.ClusterSize {
			up.ClusterSize = &n
		}
	}
	if up.Type == nil && up.ClusterSize == nil && parsed == nil {
		return con.databasePage(c, who, d, http.StatusBadRequest, "Choose another type or cluster size to resize to.")
	}
	_, err = con.Cloud.UpdateDatabase(who.User, d.Family, d.ID, up, parsed)
	if errors.Is(err, store.ErrInvalid) || errors.Is(err, store.ErrConflict) {
		return con.databasePage(c, who, d, http.StatusBadRequest, err.Error())
	}
	if err != nil {
		return err
	}
	return c.Redirect(databaseRow{d}.Path()+"?done=resize", http.StatusSeeOther)
}

// databasesPage draws the databases page with status over the create form f and its refusal.
func (con *console) databasesPage(c *fiber.Ctx, who *cloudsvc.Caller, status int, f dbForm, refused string) error {
	if err := allow(cloudsvc.NeedListDatabases, who); err != nil {
		return err
	}
	list, err := con.Cloud.VisibleDatabases(who.User, "")
	if err != nil {
		return err
	}
	page, p := paginate(c, "/console/databases", list)
	v := databasesView{top: newTop(who, "databases"), Pager: p, Form: f, Error: refused}
	if allow(cloudsvc.NeedCreateDatabase, who) == nil && cloudsvc.MayCreateDatabase(who.User) == nil {
		v.MayCreate = true
		if v.Form.Catalog, err = con.Cloud.DatabaseCatalog(); err != nil {
			return err
		}
	}
	for _, d := range page {
		v.Databases = append(v.Databases, databaseRow{d})
	}
	return con.render(c, status, "Databases", web.PageOf(databasesPage, v))
}
